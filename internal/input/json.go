package input

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting JSON walks, so a deep document cannot exhaust
// the stack; the decoders behind the gate hold far less.
const maxDepth = 64

// JSON checks a JSON document: well formed, every string (keys included)
// valid UTF-8 without NUL characters, whether raw or escaped (a lone
// surrogate escape such as \ud800 is not UTF-8), and no object key given
// twice. The error names the offending place as a path: a key for a
// top-level field ("first_name"), dotted and indexed below it
// ("lines[2].note"); a refused key is named by the path of its object plus
// the key. It decodes nothing and allocates only for paths.
func JSON(doc []byte) *Error {
	return JSONVisit(doc, nil)
}

// JSONVisit is JSON that also hands every string value (not the keys), once
// checked, to visit with its path, so a face can check formats it knows of
// (a UUID, a date) in the same pass; visit's error, when not nil, ends the
// walk and is returned.
func JSONVisit(doc []byte, visit func(path, s string) *Error) *Error {
	w := walker{b: doc, visit: visit}
	w.space()
	if err := w.value("", 0); err != nil {
		return err
	}
	w.space()
	if w.i != len(w.b) {
		return &Error{Reason: ReasonJSON}
	}
	return nil
}

type walker struct {
	b []byte
	i int
	// visit, when set, sees every string value (not keys) once it is checked.
	visit func(path, s string) *Error
}

func (w *walker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w *walker) value(path string, depth int) *Error {
	if depth > maxDepth || w.i >= len(w.b) {
		return &Error{Field: path, Reason: ReasonJSON}
	}
	switch c := w.b[w.i]; {
	case c == '{':
		return w.object(path, depth)
	case c == '[':
		return w.array(path, depth)
	case c == '"':
		s, err := w.str(path)
		if err == nil && w.visit != nil {
			err = w.visit(path, s)
		}
		return err
	case c == 't':
		return w.literal("true", path)
	case c == 'f':
		return w.literal("false", path)
	case c == 'n':
		return w.literal("null", path)
	case c == '-' || '0' <= c && c <= '9':
		return w.number(path)
	default:
		return &Error{Field: path, Reason: ReasonJSON}
	}
}

func (w *walker) literal(lit, path string) *Error {
	if len(w.b)-w.i < len(lit) || string(w.b[w.i:w.i+len(lit)]) != lit {
		return &Error{Field: path, Reason: ReasonJSON}
	}
	w.i += len(lit)
	return nil
}

func (w *walker) number(path string) *Error {
	start := w.i
scan:
	for w.i < len(w.b) {
		switch c := w.b[w.i]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			w.i++
		default:
			break scan
		}
	}
	if _, err := strconv.ParseFloat(string(w.b[start:w.i]), 64); err != nil {
		// Out of float range is left to the decoders (a range error);
		// only malformed numbers are refused here.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return &Error{Field: path, Reason: ReasonJSON}
		}
	}
	return nil
}

func (w *walker) object(path string, depth int) *Error {
	w.i++ // {
	var seen map[string]struct{}
	w.space()
	if w.i < len(w.b) && w.b[w.i] == '}' {
		w.i++
		return nil
	}
	for {
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != '"' {
			return &Error{Field: path, Reason: ReasonJSON}
		}
		key, err := w.str(path)
		if err != nil {
			return err
		}
		field := join(path, key)
		if seen == nil {
			seen = map[string]struct{}{}
		}
		if _, dup := seen[key]; dup {
			return &Error{Field: field, Reason: ReasonDuplicate}
		}
		seen[key] = struct{}{}
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != ':' {
			return &Error{Field: field, Reason: ReasonJSON}
		}
		w.i++
		w.space()
		if err := w.value(field, depth+1); err != nil {
			return err
		}
		if done, err := w.separator('}', path); done || err != nil {
			return err
		}
	}
}

func (w *walker) array(path string, depth int) *Error {
	w.i++ // [
	w.space()
	if w.i < len(w.b) && w.b[w.i] == ']' {
		w.i++
		return nil
	}
	for n := 0; ; n++ {
		w.space()
		if err := w.value(path+"["+strconv.Itoa(n)+"]", depth+1); err != nil {
			return err
		}
		if done, err := w.separator(']', path); done || err != nil {
			return err
		}
	}
}

// separator reads what follows a member or element of the object or array
// at path: a comma (more follow) or its closing byte (done).
func (w *walker) separator(closing byte, path string) (done bool, err *Error) {
	w.space()
	if w.i >= len(w.b) {
		return false, &Error{Field: path, Reason: ReasonJSON}
	}
	switch w.b[w.i] {
	case ',':
		w.i++
		return false, nil
	case closing:
		w.i++
		return true, nil
	default:
		return false, &Error{Field: path, Reason: ReasonJSON}
	}
}

// str reads a string at w.i (its opening quote), checks it and returns its
// decoded text (decoded only when it holds escapes, for keys).
func (w *walker) str(path string) (string, *Error) {
	w.i++ // "
	start := w.i
	var out []byte
	escaped := false
	for {
		if w.i >= len(w.b) {
			return "", &Error{Field: path, Reason: ReasonJSON}
		}
		c := w.b[w.i]
		switch {
		case c == '"':
			s := w.b[start:w.i]
			w.i++
			if escaped {
				return string(out), nil
			}
			return string(s), nil
		case c < 0x20:
			// Raw control characters (NUL included) are not JSON.
			if c == 0 {
				return "", &Error{Field: path, Reason: ReasonNUL}
			}
			return "", &Error{Field: path, Reason: ReasonJSON}
		case c == '\\':
			if !escaped {
				out = append(out, w.b[start:w.i]...)
				escaped = true
			}
			r, err := w.escape(path)
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, r)
		case c < utf8.RuneSelf:
			if escaped {
				out = append(out, c)
			}
			w.i++
		default:
			r, size := utf8.DecodeRune(w.b[w.i:])
			if r == utf8.RuneError && size <= 1 {
				return "", &Error{Field: path, Reason: ReasonUTF8}
			}
			if escaped {
				out = append(out, w.b[w.i:w.i+size]...)
			}
			w.i += size
		}
	}
}

// escape reads the escape at w.i (its backslash) and returns its rune.
func (w *walker) escape(path string) (rune, *Error) {
	if w.i+1 >= len(w.b) {
		return 0, &Error{Field: path, Reason: ReasonJSON}
	}
	c := w.b[w.i+1]
	w.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		return 0, &Error{Field: path, Reason: ReasonJSON}
	}
	r, ok := w.hex4()
	if !ok {
		return 0, &Error{Field: path, Reason: ReasonJSON}
	}
	switch {
	case r == 0:
		return 0, &Error{Field: path, Reason: ReasonNUL}
	case utf16.IsSurrogate(r):
		// Only a high surrogate followed by an escaped low one is text.
		if r >= 0xdc00 || w.i+1 >= len(w.b) || w.b[w.i] != '\\' || w.b[w.i+1] != 'u' {
			return 0, &Error{Field: path, Reason: ReasonUTF8}
		}
		w.i += 2
		lo, ok := w.hex4()
		if !ok {
			return 0, &Error{Field: path, Reason: ReasonJSON}
		}
		full := utf16.DecodeRune(r, lo)
		if full == utf8.RuneError {
			return 0, &Error{Field: path, Reason: ReasonUTF8}
		}
		return full, nil
	}
	return r, nil
}

func (w *walker) hex4() (rune, bool) {
	if w.i+4 > len(w.b) {
		return 0, false
	}
	var r rune
	for _, c := range w.b[w.i : w.i+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	w.i += 4
	return r, true
}
