package pagination

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/google/uuid"
)

// CursorRule is the limit policy of one cursor-based list.
type CursorRule struct {
	DefaultLimit int
	MaxLimit     int
}

// CursorLists is the contract's rule for cursor lists (invoices, payments,
// refunds): limit default 20, at most 100.
var CursorLists = CursorRule{DefaultLimit: 20, MaxLimit: 100}

// ParseLimit validates `limit` against r.
func (r CursorRule) ParseLimit(limit Optional) (int, error) {
	return parseLimit(limit, r.DefaultLimit, r.MaxLimit)
}

// ParseLimitQuery is ParseLimit over a raw query string.
func (r CursorRule) ParseLimitQuery(q url.Values) (int, error) {
	limit, err := queryInt(q, ParamLimit)
	if err != nil {
		return 0, err
	}
	return r.ParseLimit(limit)
}

// CursorMeta is the `meta` of a cursor-based list answer: NextCursor is the
// `after` of the next page, null on the last.
type CursorMeta struct {
	Limit      int     `json:"limit"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// MinSecretLen is the shortest accepted cursor secret.
const MinSecretLen = 32

// cursorVersion prefixes every cursor, so the format can change without
// accepting old cursors as new ones.
const cursorVersion byte = 1

// macLen is the length of the HMAC-SHA256 tag.
const macLen = sha256.Size

// Signer encodes and verifies the cursors of every list with one secret.
type Signer struct {
	secret []byte
}

// NewSigner returns a Signer over secret. It panics on a secret shorter than
// MinSecretLen: configuration is checked by LoadSecret before it gets here.
func NewSigner(secret []byte) *Signer {
	if len(secret) < MinSecretLen {
		panic(fmt.Sprintf("pagination: cursor secret of %d bytes, want at least %d", len(secret), MinSecretLen))
	}
	return &Signer{secret: bytes.Clone(secret)}
}

// Encode returns the cursor of list following the row whose sort key is key
// (any JSON-encodable value, e.g. TimeID).
func (s *Signer) Encode(list string, key any) (string, error) {
	body, err := json.Marshal(key)
	if err != nil {
		return "", fmt.Errorf("pagination: encode cursor: %w", err)
	}
	raw := make([]byte, 0, 1+len(body)+macLen)
	raw = append(raw, cursorVersion)
	raw = append(raw, body...)
	raw = append(raw, s.mac(list, body)...)
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// Decode verifies cursor as one of list's and decodes its sort key into key
// (a pointer). Any failure is BadCursor(ParamAfter).
func (s *Signer) Decode(list, cursor string, key any) error {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil || len(raw) < 1+macLen+1 || raw[0] != cursorVersion {
		return BadCursor(ParamAfter)
	}
	body, tag := raw[1:len(raw)-macLen], raw[len(raw)-macLen:]
	if !hmac.Equal(tag, s.mac(list, body)) {
		return BadCursor(ParamAfter)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(key); err != nil || dec.More() {
		return BadCursor(ParamAfter)
	}
	return nil
}

// mac is HMAC-SHA256 over the version, the list name (length-prefixed, so
// list and body cannot be re-split) and the body.
func (s *Signer) mac(list string, body []byte) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte{cursorVersion})
	m.Write([]byte(fmt.Sprintf("%d:%s", len(list), list)))
	m.Write(body)
	return m.Sum(nil)
}

// After decodes an optional `after` parameter: ok is false when it is empty.
func (s *Signer) After(list, after string, key any) (ok bool, err error) {
	if after == "" {
		return false, nil
	}
	if err := s.Decode(list, after, key); err != nil {
		return false, err
	}
	return true, nil
}

// Next trims rows, fetched with limit+1 to learn whether more follow, to
// limit and returns the list's meta with the cursor of the last row kept
// (keyOf gives a row's sort key).
func Next[T any](s *Signer, list string, rows []T, limit int, keyOf func(T) any) ([]T, CursorMeta, error) {
	meta := CursorMeta{Limit: limit}
	if len(rows) <= limit {
		return rows, meta, nil
	}
	rows = rows[:limit]
	c, err := s.Encode(list, keyOf(rows[len(rows)-1]))
	if err != nil {
		return nil, CursorMeta{}, err
	}
	meta.HasMore, meta.NextCursor = true, &c
	return rows, meta, nil
}

// TimeID is the usual sort key: a timestamp, with the row id breaking ties.
// Lists sorted newest first continue with (at, id) < (At, ID).
type TimeID struct {
	At time.Time `json:"t"`
	ID uuid.UUID `json:"i"`
}
