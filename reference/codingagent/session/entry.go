package session

import (
	"fmt"

	"github.com/piconform/piconform/reference/jsonv"
)

// Entry is one parsed line of a session file.
type Entry struct {
	// Value is the line as JSON.parse gives it; any JSON value.
	Value jsonv.Value
	// Line is the entry's line in the text, from 1, for messages.
	Line int
	// id, parentID and firstKept stand in for the members of those names,
	// which the version 1 migration sets even on arrays, where the JSON
	// value cannot hold them. Absent is undefined.
	id, parentID, firstKept jsonv.Value
	// keptSet is true when firstKept was set by the migration.
	keptSet bool
	// self tells this entry's object ids apart from every other value's, as
	// JavaScript's object identity does.
	self int
}

func newEntry(v jsonv.Value, line, self int) *Entry {
	e := &Entry{Value: v, Line: line, self: self}
	e.id, e.parentID = e.member("id"), e.member("parentId")
	return e
}

// Index is the entry's place among the file's parsed entries, from 0 (the
// header, as Pi writes files).
func (e *Entry) Index() int { return e.self }

// member reads a member as JavaScript reads a property of a parsed value:
// undefined (Absent) on anything but an object that has it.
func (e *Entry) member(key string) jsonv.Value {
	if e.Value.Kind() != jsonv.Object {
		return jsonv.Value{}
	}
	v, _ := e.Value.Get(key)
	return v
}

// typ is the entry's type when it is a string, else "".
func (e *Entry) typ() string {
	if t := e.member("type"); t.Kind() == jsonv.String {
		return t.Str()
	}
	return ""
}

// firstKeptEntryID is a compaction's firstKeptEntryId member.
func (e *Entry) firstKeptEntryID() jsonv.Value {
	if e.keptSet {
		return e.firstKept
	}
	return e.member("firstKeptEntryId")
}

func (e *Entry) describe() string {
	if t := e.typ(); t != "" {
		return fmt.Sprintf("the %s entry on line %d", t, e.Line)
	}
	return fmt.Sprintf("the entry on line %d", e.Line)
}
