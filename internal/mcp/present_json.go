package mcp

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// The schedule is the largest and most read answer (tools/call
// search_schedule, resources/read of a day or range): its JSON is written by
// hand here, byte for byte as encoding/json writes it with HTML escaping
// (json.Marshal), without reflection and without an allocation per UUID and
// time stamp. REST writes the same rows with ogen's generated encoder; a test
// holds this writer equal to encoding/json, and any value it cannot write
// exactly so (a time stamp outside years 0-9999, which encoding/json refuses)
// falls back to encoding/json.

// jsonAppender is a value that appends its own JSON.
type jsonAppender interface {
	// appendJSON appends the value's JSON to b; ok is false when the value
	// must be marshalled by encoding/json instead (b is then unspecified).
	appendJSON(b []byte) (out []byte, ok bool)
}

var (
	_ jsonAppender = scheduleOut{}
	_ jsonAppender = (*classOut)(nil)
)

func (s scheduleOut) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"from":`...)
	b = appendJSONString(b, s.From)
	b = append(b, `,"to":`...)
	b = appendJSONString(b, s.To)
	b = append(b, `,"timezone":`...)
	b = appendJSONString(b, s.Timezone)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(s.Count), 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, s.Truncated)
	b = append(b, `,"classes":`...)
	if s.Classes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range s.Classes {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = s.Classes[i].appendJSON(b); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

func (c *classOut) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"id":`...)
	b = appendJSONUUID(b, c.ID)
	b = append(b, `,"class_type":`...)
	b = appendJSONRef(b, c.ClassType)
	b = append(b, `,"instructor":`...)
	b = appendJSONRef(b, c.Instructor)
	b = append(b, `,"location":`...)
	b = appendJSONRef(b, c.Location)
	b = append(b, `,"room":`...)
	b = appendJSONRef(b, c.Room)
	b = append(b, `,"start_time":`...)
	b, ok := appendJSONTime(b, c.StartTime)
	if !ok {
		return b, false
	}
	b = append(b, `,"end_time":`...)
	if b, ok = appendJSONTime(b, c.EndTime); !ok {
		return b, false
	}
	b = append(b, `,"status":`...)
	b = appendJSONString(b, c.Status)
	b = append(b, `,"online":`...)
	b = strconv.AppendBool(b, c.Online)
	b = append(b, `,"capacity":`...)
	b = strconv.AppendInt(b, int64(c.Capacity), 10)
	b = append(b, `,"booked":`...)
	b = strconv.AppendInt(b, int64(c.Booked), 10)
	b = append(b, `,"waitlisted":`...)
	b = strconv.AppendInt(b, int64(c.Waitlisted), 10)
	b = append(b, `,"available":`...)
	b = strconv.AppendInt(b, int64(c.Available), 10)
	b = append(b, `,"bookable":`...)
	b = strconv.AppendBool(b, c.Bookable)
	return append(b, '}'), true
}

func appendJSONRef(b []byte, r *ref) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"id":`...)
	b = appendJSONUUID(b, r.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, r.Name)
	return append(b, '}')
}

// appendJSONUUID writes id as its MarshalText does: 36 lower-case hex
// characters and hyphens, which need no escaping.
func appendJSONUUID(b []byte, id uuid.UUID) []byte {
	var text [36]byte
	hexDigits := "0123456789abcdef"
	j := 0
	for i, v := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			text[j] = '-'
			j++
		}
		text[j], text[j+1] = hexDigits[v>>4], hexDigits[v&0xf]
		j += 2
	}
	b = append(b, '"')
	b = append(b, text[:]...)
	return append(b, '"')
}

// appendJSONTime writes t as its MarshalJSON does (RFC 3339 with the
// nanoseconds that are not zero); ok is false for the years MarshalJSON
// refuses.
func appendJSONTime(b []byte, t time.Time) ([]byte, bool) {
	if y := t.Year(); y < 0 || y > 9999 {
		return b, false
	}
	// The offset is written in whole minutes; MarshalJSON refuses one of 24
	// hours or more.
	if _, offset := t.Zone(); offset/60/60 >= 24 || offset/60/60 <= -24 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}

// appendJSONString writes s as encoding/json does with HTML escaping: <, >
// and & as \u003c, \u003e and \u0026, the control characters with their
// short escapes or \u00XX, invalid UTF-8 as \ufffd, and U+2028 and U+2029
// escaped.
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
