package conformance

import "testing"

func TestResponseEncodings(t *testing.T) {
	for _, name := range ResponseEncodingNames() {
		e, ok := ResponseEncodingNamed(name)
		if !ok || e.Event == nil || e.Frames == nil || e.ContentType == "" {
			t.Fatalf("%s: incomplete %+v", name, e)
		}
		if _, ok := ResponseEncodingOf(e.ContentType + "; charset=utf-8"); !ok {
			t.Errorf("%s: its content type %q with a parameter is not found", name, e.ContentType)
		}
	}
	if _, ok := ResponseEncodingNamed("aws-eventstream"); !ok {
		t.Error("aws-eventstream missing")
	}
	for _, ct := range []string{"", "text/event-stream", "application/json", "not a media type;;"} {
		if _, ok := ResponseEncodingOf(ct); ok {
			t.Errorf("%q taken for a framed encoding", ct)
		}
	}
}
