package googlevertex

import (
	"slices"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
)

// Options are the members of Pi's GoogleVertexOptions that shape a
// request, as a harness case writes them in JSON: google-generative-ai's
// options plus the project and the location, which only matter when there
// is no usable key, as do the shared env values read here
// (GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT and GOOGLE_CLOUD_LOCATION). A
// member left out is nil or Absent, Pi's `undefined`.
type Options struct {
	// Options holds the members shared with google-generative-ai. Its
	// Extra keeps the members neither API reads.
	google.Options
	// Project and Location name the Google Cloud project and region used
	// with Google credentials (no usable key). Pi only tests them for
	// truthiness, so any value is kept as written (input.lenient).
	Project  jsonv.Value `pi:"project"`
	Location jsonv.Value `pi:"location"`
}

// DecodeOptions reads Options from a JSON object. A shared member of the
// wrong type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	base, err := google.DecodeOptions(v, ptr)
	if err != nil {
		return Options{}, err
	}
	// What google leaves over is read here, at the same pointer.
	f := jsonv.ReadFields(jsonv.ObjectValue(base.Extra...), ptr)
	o := Options{Options: base}
	provider.ReadTagged(&o, f)
	o.Extra = f.Rest()
	return o, f.Err()
}

// anySet is JavaScript's `a || b || ...` tested for truthiness: whether
// the project (or location) option, else one of the env values, is set.
func anySet(option jsonv.Value, env ...string) bool {
	return option.Truthy() || slices.ContainsFunc(env, func(v string) bool { return v != "" })
}
