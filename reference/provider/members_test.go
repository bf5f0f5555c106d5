package provider_test

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider"
)

// pair are members an API shares with another, embedded in its options.
type pair struct {
	Effort jsonv.Value `pi:"effort"`
}

// tagged is an API's options: shared members, tagged ones of both kinds,
// an embedded struct of tagged members, and one member no tag describes.
type tagged struct {
	provider.StreamOptions
	pair
	Choice  jsonv.Value `pi:"toolChoice"`
	Profile *string     `pi:"profile"`
	Odd     bool
}

func (o tagged) EncodeOwn(b *jsonv.ObjectBuilder) {
	if o.Odd {
		b.Set("odd", jsonv.BoolValue(true))
	}
}

// outer embeds another API's options, as Vertex's embed Google's.
type outer struct {
	tagged
	Project jsonv.Value `pi:"project"`
}

func TestTaggedMembers(t *testing.T) {
	in := `{"apiKey":"k","effort":7,"toolChoice":null,"profile":"p","odd":true,"signal":{}}`
	v := jsonvtest.Parse(t, in)
	o, err := provider.DecodeTagged[tagged](v, "/options")
	if err != nil {
		t.Fatal(err)
	}
	if o.Effort.String() != "7" || o.Choice.Kind() != jsonv.Null || *o.Profile != "p" || len(o.Extra) != 2 {
		t.Errorf("decoded %+v", o)
	}
	o.Odd = true
	if got := provider.EncodeOptions(&o); !jsonv.Equal(got, v) {
		t.Errorf("round trip: %s, want %s", got, v)
	}
	if _, err := provider.DecodeTagged[tagged](jsonv.ObjectValue(jsonv.Member{Key: "profile", Value: jsonv.BoolValue(true)}), "/options"); err == nil ||
		err.Error() != "/options/profile: want string, got boolean" {
		t.Errorf("profile true: err = %v", err)
	}

	// ReadTagged leaves the embedded options to their own API; EncodeOptions
	// writes them all.
	x := outer{tagged: tagged{Choice: jsonv.StringValue("auto")}}
	f := jsonv.ReadFields(jsonv.ObjectValue(jsonv.Member{Key: "project", Value: jsonv.StringValue("pr")}), "")
	provider.ReadTagged(&x, f)
	if x.Project.Str() != "pr" || x.Choice.Str() != "auto" {
		t.Errorf("ReadTagged: project %s, toolChoice %s", x.Project, x.Choice)
	}
	want := `{"toolChoice":"auto","project":"pr"}`
	if got := provider.EncodeOptions(&x).String(); got != want {
		t.Errorf("EncodeOptions = %s, want %s", got, want)
	}
}
