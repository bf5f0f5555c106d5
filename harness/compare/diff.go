package compare

import "github.com/piconform/piconform/reference/jsonv"

// Diff is one difference between want and got, at a JSON Pointer.
//
// (Placeholder of the shared contract, so the expect branch compiles; the
// diffs branch defines it in full, and this file goes when they merge.)
type Diff struct {
	Path      string
	Want, Got jsonv.Value
}
