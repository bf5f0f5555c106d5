// Package expect reads and writes expected-failure files.
//
// Such a file lists the cases an implementation is known to fail, one entry
// a line: a case id glob (path.Match syntax, e.g. "normalize/images-*"), then
// "#" and the reason, which is required. Blank lines and lines starting with
// "#" are comments.
//
//	# Pi 0.73.1 has no cost for one-hour cache writes.
//	cost/reference-example-with-1h  # cacheWrite1h is priced like cacheWrite
package expect

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Entry is one expected failure.
type Entry struct {
	Pattern string
	Reason  string
	Line    int
}

// File is a parsed expectations file.
type File struct {
	Path    string
	Entries []Entry
}

// Read parses the file at p.
func Read(p string) (*File, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return Parse(p, data)
}

// Parse parses data read from the file named p. Errors carry file:line.
func Parse(p string, data []byte) (*File, error) {
	f := &File{Path: p}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		pattern, reason, ok := strings.Cut(text, "#")
		pattern, reason = strings.TrimSpace(pattern), strings.TrimSpace(reason)
		if !ok || reason == "" {
			return nil, fmt.Errorf("%s:%d: %q has no reason; write `%s  # why it fails`", p, n, pattern, pattern)
		}
		if strings.ContainsAny(pattern, " \t") {
			return nil, fmt.Errorf("%s:%d: %q is not one case id glob", p, n, pattern)
		}
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, fmt.Errorf("%s:%d: bad glob %q: %v", p, n, pattern, err)
		}
		f.Entries = append(f.Entries, Entry{Pattern: pattern, Reason: reason, Line: n})
	}
	return f, sc.Err()
}

// Match returns the first entry whose glob matches id.
func (f *File) Match(id string) (Entry, bool) {
	if f == nil {
		return Entry{}, false
	}
	for _, e := range f.Entries {
		if ok, _ := path.Match(e.Pattern, id); ok {
			return e, true
		}
	}
	return Entry{}, false
}

// Unmatched returns the entries that match none of ids.
func (f *File) Unmatched(ids []string) []Entry {
	if f == nil {
		return nil
	}
	var out []Entry
	for _, e := range f.Entries {
		if !slices.ContainsFunc(ids, func(id string) bool { ok, _ := path.Match(e.Pattern, id); return ok }) {
			out = append(out, e)
		}
	}
	return out
}

// Failure is a case that did not pass, for Render.
type Failure struct {
	ID      string
	Message string
}

// Render writes an expectations file listing exactly failures. Reasons of
// existing entries that still match are kept; a new failure gets its message
// as a reason to be edited.
func Render(old *File, failures []Failure) []byte {
	var b bytes.Buffer
	b.WriteString("# Expected failures: case id glob, then # and why the implementation fails it.\n")
	slices.SortFunc(failures, func(a, b Failure) int { return strings.Compare(a.ID, b.ID) })
	written := map[string]bool{}
	for _, fl := range failures {
		if e, ok := old.Match(fl.ID); ok {
			if !written[e.Pattern] {
				fmt.Fprintf(&b, "%s  # %s\n", e.Pattern, e.Reason)
				written[e.Pattern] = true
			}
			continue
		}
		msg := strings.Join(strings.Fields(fl.Message), " ")
		if len(msg) > 160 {
			cut := 160
			for cut > 0 && !utf8.RuneStart(msg[cut]) {
				cut-- // never split a UTF-8 character
			}
			msg = msg[:cut] + "…"
		}
		fmt.Fprintf(&b, "%s  # TODO explain: %s\n", fl.ID, msg)
	}
	return b.Bytes()
}
