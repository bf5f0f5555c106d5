package googlevertex

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/google"
)

// FromSimple is what Pi's streamSimple hands to stream: the thinking
// object google.SimpleThinking makes for Vertex. No project or location
// is kept: they come from env; from 1.6 on toolChoice is. Pi does not
// require a key here (Vertex can use Google credentials).
func FromSimple(model *ai.Model, s provider.SimpleOptions) (Options, error) {
	thinking, err := google.SimpleThinking(model, s, true)
	return Options{Options: google.Options{StreamOptions: s.BaseFor(model), ToolChoice: s.ToolChoice(), Thinking: thinking}}, err
}
