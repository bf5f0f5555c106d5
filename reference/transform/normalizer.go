package transform

import (
	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/wtf8"
)

// RegexNormalizer builds the tool-call id normalizer that a normalize case
// file describes as {"replace": regex, "with": string, "maxLength"?: n}. It
// computes, with JavaScript semantics,
//
//	id.replace(new RegExp(replace, "g"), with).slice(0, maxLength)
//
// A nil maxLength means no cut; a negative one counts from the end, as slice
// does. The model and source message are ignored.
//
// JavaScript strings are UTF-16, so the pattern, the id and the replacement
// are all handled as UTF-16 code units, the way a regular expression without
// the u flag sees them: an astral character is two units, "." matches each
// half, and a cut may leave a lone surrogate. To run Go's regexp package in
// that world, every code unit becomes one rune: a unit outside the surrogate
// range stands for itself and a surrogate unit U stands for the private-use
// rune 0x100000+U. The pattern is translated from JavaScript syntax into Go
// syntax over those runes (see translator), and $ patterns in with
// ($$, $&, $`, $', $1…$99, $<name>) are expanded as String.prototype.replace
// expands them.
//
// Patterns Go cannot express are rejected with an error: lookahead,
// lookbehind, backreferences, and a repeated group whose preferred way can
// match empty ahead of a way that matches text, such as (?:|b)+ (see
// emptyLoop). Two differences remain: Go refuses a
// counted repetition above 1000, and a capture group inside a repeated group
// keeps the value of the last iteration that set it, where JavaScript clears
// it at every iteration (this only shows through $n in with).
func RegexNormalizer(replace, with string, maxLength *int) (IDNormalizer, error) {
	re, err := compileJS(replace)
	if err != nil {
		return nil, err
	}
	template := wtf8.ToUTF16(with)
	var limit *int
	if maxLength != nil {
		n := *maxLength
		limit = &n
	}
	return func(id string, _ *ai.Model, _ *ai.AssistantMessage) string {
		units := re.replaceAll(wtf8.ToUTF16(id), template)
		if limit != nil {
			units = jsSlice(units, *limit)
		}
		return wtf8.FromUTF16(units)
	}, nil
}

// jsSlice is JavaScript's slice(0, end) over code units.
func jsSlice(units []uint16, end int) []uint16 {
	if end < 0 {
		end = max(len(units)+end, 0)
	}
	if end >= len(units) {
		return units
	}
	return units[:end]
}
