// Package session is what Pi's coding agent does with a session file when it
// loads one: read its lines into entries (ParseEntries), bring old versions
// up to the current one (Migrate), and rebuild the conversation on the path
// from a leaf entry to the root (BuildContext). Load does all three.
//
// Entries are JavaScript values as JSON.parse gives them: numbers are doubles,
// an object's duplicate members collapse to the last one, strings keep lone
// surrogates. Pi reads their members without checking their types, so the
// package reads them the way JavaScript would (truthiness, strict equality,
// Map keys, V8's Date parsing) and fails, with a Thrown, exactly where Pi throws.
package session

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// CurrentVersion is the session format version Pi 0.80.2 writes.
const CurrentVersion = 3

// Thrown is a failure where Pi itself throws. Category names the kind of
// JavaScript error ("type-error"), portable across languages; Message says,
// in the reference's words, what failed.
type Thrown struct {
	Category string
	Message  string
}

func (t *Thrown) Error() string { return t.Category + ": " + t.Message }

// CategoryTypeError is the category of JavaScript's TypeError: a member read
// from null or undefined, a member set on a primitive, an object that has no
// primitive value. It is the only one Pi's session code throws.
const CategoryTypeError = "type-error"

func typeError(format string, args ...any) error {
	return &Thrown{Category: CategoryTypeError, Message: fmt.Sprintf(format, args...)}
}

// ErrOutsideModel marks input on which Pi's answer depends on what the
// reference does not model: numbers beyond a double's range, a parentId
// chain with a cycle.
var ErrOutsideModel = errors.New("outside what the reference models")

// Leaf says where BuildContext starts. The zero Leaf is Pi's undefined: the
// last entry.
type Leaf struct {
	// Null is Pi's null: before the first entry, so no messages.
	Null bool
	// ID names an entry; one that names none (or "") falls back to the last
	// entry, as undefined does.
	ID string
	// Value is a leaf id of another JSON type, as a JavaScript caller may
	// pass one; it is read when ID is "". A falsy one is undefined; a
	// number finds an entry whose id is that number; an object or array
	// finds none.
	Value jsonv.Value
}

// Context is what BuildContext rebuilds.
type Context struct {
	// Messages are the AgentMessages on the path, as JSON.
	Messages []jsonv.Value
	// ThinkingLevel is the last thinking_level_change's level on the path,
	// "off" without one; Absent when that entry has none.
	ThinkingLevel jsonv.Value
	// Model is {provider, modelId} from the last model_change or assistant
	// message on the path, or null.
	Model jsonv.Value
}

// Options change how Load runs.
type Options struct {
	// Dialect is the coding agent's release line; the zero value is 0.80.
	Dialect dialect.Dialect
	// NewID makes the ids the version 1 migration gives entries. Nil means
	// Pi's: eight random hex digits. No id it makes reaches the Context.
	NewID func() string
}

// RandomID is Pi's id for migrated entries: eight random hex digits.
func RandomID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Load parses, migrates and rebuilds a session file's text, as Pi's
// parseSessionEntries, migrateSessionEntries and buildSessionContext do.
func Load(text string, leaf Leaf, opts Options) (Context, error) {
	entries, err := LoadEntries(text, opts)
	if err != nil {
		return Context{}, err
	}
	return BuildContextIn(opts.Dialect, entries, leaf)
}

// LoadEntries parses and migrates a session file's text: the entries Pi
// holds once it has loaded the file.
func LoadEntries(text string, opts Options) ([]*Entry, error) {
	entries, err := ParseEntries(text)
	if err != nil {
		return nil, err
	}
	newID := opts.NewID
	if newID == nil {
		newID = RandomID
	}
	if err := Migrate(entries, newID); err != nil {
		return nil, err
	}
	return entries, nil
}

// outsideModel says what the reference does not model, as an ErrOutsideModel.
func outsideModel(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrOutsideModel}, args...)...)
}
