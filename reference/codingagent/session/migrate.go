package session

import (
	"math"

	"github.com/piconform/piconform/reference/jsonv"
)

// Migrate brings entries to CurrentVersion in place, as Pi's
// migrateSessionEntries does. The version is the first session entry's
// "version" (1 when it has none, or is null, or there is no header), compared
// as JavaScript compares it with a number. Version 1 entries get made-up ids
// (from newID) chained in file order, and a compaction's firstKeptEntryIndex
// becomes the id of the entry at that index; version 2 message entries whose
// message has role "hookMessage" get role "custom".
func Migrate(entries []*Entry, newID func() string) error {
	version := jsonv.NumberValue("1")
	for _, e := range entries {
		if e.Value.Kind() == jsonv.Null {
			return typeError("%s is null: reading its type", e.describe())
		}
		if e.typ() == "session" {
			if v := e.member("version"); v.Kind() != jsonv.Absent && v.Kind() != jsonv.Null {
				version = v
			}
			break
		}
	}
	n, err := toNumber(version)
	if err != nil {
		return err
	}
	if n >= CurrentVersion || math.IsNaN(n) {
		return nil
	}
	if n < 2 {
		if err := migrateV1(entries, newID); err != nil {
			return err
		}
	}
	return migrateV2(entries)
}

func migrateV1(entries []*Entry, newID func() string) error {
	prev := jsonv.NullValue()
	for _, e := range entries {
		if e.typ() == "session" {
			continue
		}
		switch e.Value.Kind() {
		case jsonv.Object, jsonv.Array:
		default:
			return typeError("%s is %s: setting its id", e.describe(), describeValue(e.Value))
		}
		e.id, e.parentID = jsonv.StringValue(newID()), prev
		prev = e.id
		if e.typ() != "compaction" {
			continue
		}
		idx := e.member("firstKeptEntryIndex")
		if idx.Kind() != jsonv.Number {
			continue
		}
		f, _ := idx.Float64()
		if i := int(f); float64(i) == f && i >= 0 && i < len(entries) {
			// A null target is falsy and skipped; the loop throws on it
			// when it gets there.
			target := entries[i]
			if target.Value.Truthy() && target.typ() != "session" {
				e.firstKept, e.keptSet = target.id, true
			}
		}
	}
	return nil
}

func migrateV2(entries []*Entry) error {
	for _, e := range entries {
		if e.Value.Kind() == jsonv.Null {
			return typeError("%s is null: reading its type", e.describe())
		}
		if e.typ() != "message" {
			continue
		}
		msg := e.member("message")
		if role, _ := msg.Get("role"); msg.Kind() == jsonv.Object && role.Kind() == jsonv.String && role.Str() == "hookMessage" {
			e.Value = e.Value.With("message", msg.With("role", jsonv.StringValue("custom")))
		}
	}
	return nil
}
