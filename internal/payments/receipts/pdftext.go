package receipts

import (
	"bytes"
	"strings"
)

// PDFText reads back the text a receipt shows: the strings of its
// uncompressed content stream's text operators (Tj), decoded from cp1252,
// one line per operator. It reads the PDFs Render makes, not PDFs at large.
func PDFText(pdf []byte) string {
	var lines []string
	for i := 0; i < len(pdf); i++ {
		if pdf[i] != '(' {
			continue
		}
		var (
			b     bytes.Buffer
			j     = i + 1
			depth = 1
		)
		for ; j < len(pdf) && depth > 0; j++ {
			c := pdf[j]
			switch {
			case c == '\\' && j+1 < len(pdf):
				j++
				switch n := pdf[j]; n {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(n)
				}
			case c == '(':
				depth++
				b.WriteByte(c)
			case c == ')':
				depth--
				if depth > 0 {
					b.WriteByte(c)
				}
			default:
				b.WriteByte(c)
			}
		}
		rest := strings.TrimLeft(string(pdf[j:min(j+8, len(pdf))]), " ")
		if strings.HasPrefix(rest, "Tj") {
			lines = append(lines, decode1252(b.Bytes()))
		}
		i = j - 1
	}
	return strings.Join(lines, "\n")
}

// decode1252 decodes cp1252 text; the letters a receipt uses above ASCII
// (æ ø å Æ Ø Å é ...) share their code points with Latin-1.
func decode1252(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		s.WriteRune(rune(c))
	}
	return s.String()
}
