package azureopenairesponses

import "testing"

func TestParseStreamMatchesPi(t *testing.T) { captures.CheckStreams(t, "testdata/streams.json") }

// The parser is openai-responses'; the split check guards the unpriced
// path through it.
func TestParseStreamSplitAnywhere(t *testing.T) { captures.CheckSplits(t, "testdata/streams.json") }
