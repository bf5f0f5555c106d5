package google

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/stream"
)

// Pi 1.6's thinking settings, which google-generative-ai and google-vertex
// share (google-shared.js): which models take a thinking level rather
// than a token budget, how a level is resolved through the model's
// thinkingLevelMap, and what turns thinking off. The 0.80 settings, which
// the two APIs each had their own way, are in request.go and simple.go.

var (
	gemini3ProOrFlash = regexp.MustCompile(`gemini-3(?:\.\d+)?-(?:pro|flash)`)
	gemini4OrLater    = regexp.MustCompile(`gemini-(?:[4-9]|[1-9]\d)`)
)

// UsesThinkingLevel is Pi 1.6's test of a model that takes
// thinkingConfig.thinkingLevel rather than a budget: Gemini 3 Pro and
// Flash, Gemini 4 and later, the Flash aliases and Gemma 4, by the id in
// lower case.
func UsesThinkingLevel(model *ai.Model) bool {
	id := strings.ToLower(model.ID)
	return gemini3ProOrFlash.MatchString(id) || gemini4OrLater.MatchString(id) ||
		id == "gemini-flash-latest" || id == "gemini-flash-lite-latest" || gemma4.MatchString(id)
}

// googleLevels are the levels Pi 1.6 can send, in the SDK's spelling.
var googleLevels = map[string]string{"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}

// ResolveThinkingLevel is Pi 1.6's resolveGoogleThinkingLevel: the
// model's thinkingLevelMap entry for level in lower case when it is a
// string, else the level itself, which must be minimal, low, medium or
// high. It returns the SDK's spelling (MINIMAL …); anything else is Pi's
// throw, whose text the error holds.
func ResolveThinkingLevel(model *ai.Model, level string) (string, error) {
	mapped := provider.LevelEntry(model, jsonv.StringValue(level))
	resolved := level
	if mapped.Kind() == jsonv.String {
		resolved = strings.ToLower(mapped.Str())
	}
	if l, ok := googleLevels[resolved]; ok {
		return l, nil
	}
	return "", &stream.RequestError{Message: fmt.Sprintf("Unsupported Google thinking level mapping for %s/%s: %s -> %s",
		stream.ToString(model.ProviderValue()), stream.ToString(model.IDValue()), level, stream.ToString(mapped))}
}

// offConfig is Pi 1.6's thinkingConfig that turns thinking off
// (getDisabledGoogleThinkingConfig): a zero budget, unless the model takes
// a level and cannot turn thinking off (its thinkingLevelMap maps off to
// null), when it is the lowest level it supports, without includeThoughts.
func offConfig(d dialect.Dialect, model *ai.Model) (jsonv.Value, error) {
	zero := new(jsonv.ObjectBuilder).Set("thinkingBudget", jsonv.NumberValue("0")).Value()
	if !UsesThinkingLevel(model) {
		return zero, nil
	}
	fallback := provider.ClampThinkingLevelIn(d, model, "off")
	if fallback == "off" {
		return zero, nil
	}
	level, err := ResolveThinkingLevel(model, fallback)
	if err != nil {
		return jsonv.Value{}, err
	}
	return new(jsonv.ObjectBuilder).SetString("thinkingLevel", level).Value(), nil
}

// sdkLevels are the names in Pi's map of the SDK's ThinkingLevel values.
var sdkLevels = map[string]bool{"THINKING_LEVEL_UNSPECIFIED": true, "MINIMAL": true, "LOW": true, "MEDIUM": true, "HIGH": true}

// sdkThinkingLevel is thinking.level as Pi sends it where it looks it up
// in its map of the SDK's level names by String(level): a value that
// names one of the levels (an array ["LOW"] too) is that level,
// "__proto__" finds the map's prototype, an empty object on the wire, and
// anything else is sent as nothing at all (Absent).
func sdkThinkingLevel(level jsonv.Value) jsonv.Value {
	switch key := stream.ToString(level); {
	case sdkLevels[key]:
		return jsonv.StringValue(key)
	case key == "__proto__":
		return jsonv.ObjectValue()
	}
	return jsonv.Value{}
}
