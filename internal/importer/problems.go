package importer

import (
	"fmt"
	"strconv"
	"strings"
)

// maxProblems bounds the problems one run collects before it stops looking.
const maxProblems = 50

// Problem is one thing wrong with a document, located by section, item and
// field.
type Problem struct {
	// Section is the section name ("classes"); empty for the whole document.
	Section string
	// Ref is the item's ref; when it is empty, Index locates the item.
	Ref   string
	Index int
	// Field is the field name, empty for the whole item.
	Field   string
	Message string
}

// String renders the problem as section[ref].field: message, for example
// `classes[c7].room: unknown room ref "r9"`.
func (p Problem) String() string {
	var b strings.Builder
	if p.Section != "" {
		b.WriteString(p.Section)
		b.WriteByte('[')
		if p.Ref != "" {
			b.WriteString(p.Ref)
		} else {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(p.Index))
		}
		b.WriteByte(']')
	}
	if p.Field != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p.Field)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error is an invalid document: every problem found, in document order. No
// row is written when Import returns it.
type Error struct {
	Problems []Problem
	// More counts the problems left out after maxProblems.
	More int
}

// Error lists the problems, one a line.
func (e *Error) Error() string {
	lines := make([]string, 0, len(e.Problems)+1)
	for _, p := range e.Problems {
		lines = append(lines, p.String())
	}
	if e.More > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more problems", e.More))
	}
	return strings.Join(lines, "\n")
}

// problems collects the problems of one run.
type problems struct {
	list []Problem
	more int
}

// item locates an item of a section.
type item struct {
	section string
	index   int
	ref     string
}

func (ps *problems) add(it item, field, format string, args ...any) {
	if len(ps.list) >= maxProblems {
		ps.more++
		return
	}
	ps.list = append(ps.list, Problem{
		Section: it.section, Ref: it.ref, Index: it.index,
		Field: field, Message: fmt.Sprintf(format, args...),
	})
}

func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	return &Error{Problems: ps.list, More: ps.more}
}
