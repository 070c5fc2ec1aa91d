package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// topLevel lists the fields a document may have.
var topLevel = []string{
	"format", SecBrands, SecLocations, SecClassTypes, SecInstructors, SecClasses,
	SecPassTypes, SecMembers, SecPasses, SecBookings, SecPayments, SecAlerts,
	SecVenue, SecOpeningHours, SecAmenities, SecPhotos, SecAddons, SecGiftCards, SecServices,
}

// Parse reads a document strictly: malformed JSON (with its line and column),
// a format other than venue-import/1, unknown fields at any level and values
// of the wrong JSON type are errors. The error is an *Error.
func Parse(r io.Reader) (*Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read document: %w", err)
	}
	var ps problems
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		ps.add(item{}, "", "%s", jsonProblem(data, err))
		return nil, ps.err()
	}
	if top == nil {
		ps.add(item{}, "", "the document must be a JSON object")
		return nil, ps.err()
	}
	var keys []string
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(topLevel, k) {
			ps.add(item{}, k, "unknown top-level field (known: %s)", strings.Join(topLevel, ", "))
		}
	}
	var format string
	if raw, ok := top["format"]; !ok {
		ps.add(item{}, "format", "missing; want %q", Format)
	} else if err := json.Unmarshal(raw, &format); err != nil || format != Format {
		ps.add(item{}, "format", "unsupported format %s; want %q", strings.TrimSpace(string(raw)), Format)
	}
	doc := &Document{Format: format}
	decodeSection(&ps, top, SecBrands, &doc.Brands)
	decodeLocations(&ps, top, &doc.Locations)
	decodeSection(&ps, top, SecClassTypes, &doc.ClassTypes)
	decodeSection(&ps, top, SecInstructors, &doc.Instructors)
	decodeSection(&ps, top, SecClasses, &doc.Classes)
	decodeSection(&ps, top, SecPassTypes, &doc.PassTypes)
	decodeSection(&ps, top, SecMembers, &doc.Members)
	decodeSection(&ps, top, SecPasses, &doc.Passes)
	decodeSection(&ps, top, SecBookings, &doc.Bookings)
	decodeSection(&ps, top, SecPayments, &doc.Payments)
	decodeSection(&ps, top, SecAlerts, &doc.Alerts)
	decodeVenue(&ps, top, &doc.Venue)
	decodeSection(&ps, top, SecOpeningHours, &doc.OpeningHours)
	decodeSection(&ps, top, SecAmenities, &doc.Amenities)
	decodeSection(&ps, top, SecPhotos, &doc.Photos)
	decodeSection(&ps, top, SecAddons, &doc.Addons)
	decodeSection(&ps, top, SecGiftCards, &doc.GiftCards)
	decodeSection(&ps, top, SecServices, &doc.Services)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return doc, nil
}

// rawItems splits a section into its items; ok is false when the section is
// absent or not an array (reported).
func rawItems(ps *problems, top map[string]json.RawMessage, section string) ([]json.RawMessage, bool) {
	raw, ok := top[section]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		ps.add(item{}, section, "must be an array of objects")
		return nil, false
	}
	return items, true
}

func decodeSection[T any](ps *problems, top map[string]json.RawMessage, section string, out *[]T) {
	items, ok := rawItems(ps, top, section)
	if !ok {
		return
	}
	*out = make([]T, len(items))
	for i, raw := range items {
		if err := strictDecode(raw, &(*out)[i]); err != nil {
			ps.add(item{section, i, refOf(raw)}, decodeField(err), "%s", decodeMessage(err))
		}
	}
}

// decodeVenue decodes the top-level venue object strictly; its problems are
// named venue.FIELD.
func decodeVenue(ps *problems, top map[string]json.RawMessage, out **VenueProfile) {
	raw, ok := top[SecVenue]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		ps.add(item{}, SecVenue, "must be an object")
		return
	}
	var v VenueProfile
	if err := strictDecode(raw, &v); err != nil {
		field := SecVenue
		if f := decodeField(err); f != "" {
			field += "." + f
		}
		ps.add(item{}, field, "%s", decodeMessage(err))
		return
	}
	*out = &v
}

// decodeLocations decodes section locations; a problem in a nested room is
// reported against the room, in section rooms.
func decodeLocations(ps *problems, top map[string]json.RawMessage, out *[]Location) {
	items, ok := rawItems(ps, top, SecLocations)
	if !ok {
		return
	}
	*out = make([]Location, len(items))
	for i, raw := range items {
		err := strictDecode(raw, &(*out)[i])
		if err == nil {
			continue
		}
		var shell struct {
			Rooms []json.RawMessage `json:"rooms"`
		}
		if json.Unmarshal(raw, &shell) == nil {
			found := false
			for j, rr := range shell.Rooms {
				var room Room
				if rerr := strictDecode(rr, &room); rerr != nil {
					ps.add(item{SecRooms, j, refOf(rr)}, decodeField(rerr), "%s", decodeMessage(rerr))
					found = true
				}
			}
			if found {
				continue
			}
		}
		ps.add(item{SecLocations, i, refOf(raw)}, decodeField(err), "%s", decodeMessage(err))
	}
}

func strictDecode(raw json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return errors.New("item is null; want an object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// refOf returns the ref of an item, or "" when it has none readable.
func refOf(raw json.RawMessage) string {
	var r struct {
		Ref any `json:"ref"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	s, _ := r.Ref.(string)
	return s
}

// decodeField names the field of a decoding error, if any.
func decodeField(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	if name, ok := unknownField(err); ok {
		return name
	}
	return ""
}

func decodeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("want %s, got %s", jsonKind(te.Type.Kind().String()), te.Value)
	}
	if _, ok := unknownField(err); ok {
		return "unknown field"
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "malformed item: " + se.Error()
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func unknownField(err error) (string, bool) {
	const prefix = "json: unknown field "
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return "", false
	}
	return strings.Trim(strings.TrimPrefix(msg, prefix), `"`), true
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64", "int32", "float64", "uint", "uint64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	default:
		return goKind
	}
}

// jsonProblem describes a JSON error of the whole document with its position.
func jsonProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		line, col := position(data, max(se.Offset-1, 0))
		return fmt.Sprintf("malformed JSON at line %d, column %d: %s", line, col, se.Error())
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "the document must be a JSON object, got " + te.Value
	}
	return "malformed JSON: " + err.Error()
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	if col < 1 {
		col = 1
	}
	return line, col
}
