package googlevertex

import (
	"github.com/piconform/piconform/reference/jsonv"
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
	// with Google credentials (no usable key).
	Project  *string
	Location *string
}

// DecodeOptions reads Options from a JSON object. A member of the wrong
// type is an error naming its JSON Pointer.
func DecodeOptions(v jsonv.Value, ptr string) (Options, error) {
	base, err := google.DecodeOptions(v, ptr)
	if err != nil {
		return Options{}, err
	}
	// What google leaves over is read here, at the same pointer.
	f := jsonv.ReadFields(jsonv.ObjectValue(base.Extra...), ptr)
	o := Options{Options: base, Project: f.OptString("project"), Location: f.OptString("location")}
	o.Extra = f.Rest()
	return o, f.Err()
}

// JSON encodes the options back in the shape DecodeOptions reads.
func (o Options) JSON() jsonv.Value {
	shared := o.Options
	shared.Extra = nil
	b := new(jsonv.ObjectBuilder).Extend(shared.JSON().Members())
	b.SetOptString("project", o.Project).SetOptString("location", o.Location)
	return b.Extend(o.Extra).Value()
}

// firstSet is JavaScript's `a || b || ...` over optional strings.
func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
