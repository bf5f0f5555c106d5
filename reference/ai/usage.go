package ai

import (
	"errors"

	"github.com/piconform/piconform/reference/jsonv"
)

// Usage counts the tokens of one response and what they cost. Every number
// keeps the literal it was read with until CalculateCost replaces the costs.
type Usage struct {
	Input, Output, CacheRead, CacheWrite, TotalTokens jsonv.Value
	// CacheWrite1h is the part of CacheWrite written with one-hour retention;
	// Absent unless the provider reports it.
	CacheWrite1h jsonv.Value
	Cost         Cost
	Extra        []jsonv.Member
	// Verbatim is set when the usage as written, Raw, is not an object or
	// has a cost that is not one. Pi reads nothing of a message's usage, and
	// its calculateCost gives an array cost named members, which JSON never
	// shows: either way the usage is written back as it was (input.lenient).
	Verbatim bool
	Raw      jsonv.Value
}

// Cost is the price of a Usage in dollars.
type Cost struct {
	Input, Output, CacheRead, CacheWrite, Total jsonv.Value
	Extra                                       []jsonv.Member
}

// ZeroUsage is the usage of a message that consumed nothing.
func ZeroUsage() Usage {
	zero := jsonv.NumberValue("0")
	return Usage{
		Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, TotalTokens: zero,
		Cost: Cost{Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, Total: zero},
	}
}

// DecodeUsage reads a Usage. Pi reads its counts and prices with
// JavaScript's number conversion, so any value is kept as written, and a
// usage that is not an object, or whose cost is not one, is kept Verbatim
// (input.lenient).
func DecodeUsage(v jsonv.Value, ptr string) Usage {
	cost, _ := v.Get("cost")
	if v.Kind() != jsonv.Object || cost.Kind() != jsonv.Object {
		return Usage{Verbatim: true, Raw: v}
	}
	f := jsonv.ReadFields(v, ptr)
	u := Usage{
		Input: f.Any("input"), Output: f.Any("output"), CacheRead: f.Any("cacheRead"),
		CacheWrite: f.Any("cacheWrite"), TotalTokens: f.Any("totalTokens"),
		CacheWrite1h: f.Any("cacheWrite1h"),
	}
	f.Any("cost")
	u.Extra = f.Rest()
	c := jsonv.ReadFields(cost, "") // Any never fails: no pointer needed
	u.Cost = Cost{
		Input: c.Any("input"), Output: c.Any("output"), CacheRead: c.Any("cacheRead"),
		CacheWrite: c.Any("cacheWrite"), Total: c.Any("total"),
	}
	u.Cost.Extra = c.Rest()
	return u
}

func (u Usage) JSON() jsonv.Value {
	if u.Verbatim {
		return u.Raw
	}
	// A stream reader computes the counts as JavaScript does: NaN is null.
	o := new(jsonv.ObjectBuilder).Set("input", u.Input.Stringified()).Set("output", u.Output.Stringified())
	o.Set("cacheRead", u.CacheRead.Stringified()).Set("cacheWrite", u.CacheWrite.Stringified())
	o.Set("cacheWrite1h", u.CacheWrite1h.Stringified()).Set("totalTokens", u.TotalTokens.Stringified()).Set("cost", u.Cost.JSON())
	return o.Extend(u.Extra).Value()
}

func (c Cost) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).Set("input", c.Input).Set("output", c.Output)
	o.Set("cacheRead", c.CacheRead).Set("cacheWrite", c.CacheWrite).Set("total", c.Total)
	return o.Extend(c.Extra).Value()
}

// CalculateCost prices usage with the model's per-million-token prices and
// stores the result in usage.Cost. It does the same double arithmetic in the
// same order as Pi, so the results are bit-identical, and reads every count
// and price with JavaScript's Number() (a NaN or infinite result is written
// as null). Writes with one-hour retention cost twice the input price; the
// rest of CacheWrite costs the model's cache-write price. TotalTokens is left
// alone, and so is a Verbatim usage. A model whose cost is Missing fails
// with ErrNoPrices and leaves usage alone, where Pi throws (unless the cache
// writes have no number form, which Pi reads first); a count or price
// JavaScript cannot convert fails with jsonv.ErrNoPrimitive, the members
// Pi wrote before it written.
func CalculateCost(model *Model, usage *Usage) (Cost, error) {
	// Pi's statements run in order: a count or price with no number form
	// (jsonv.ErrNoPrimitive) throws there, after the members before it
	// were written.
	noNumber := false
	num := func(v jsonv.Value) float64 {
		noNumber = noNumber || v.ConversionThrows()
		return v.JSNumber()
	}
	// A Verbatim cost takes the members Pi sets as named properties of an
	// array, which JSON never writes; the counts are still converted.
	count := func(key string, decoded jsonv.Value) jsonv.Value {
		if usage.Verbatim {
			decoded, _ = usage.Raw.Get(key)
		}
		return decoded
	}
	set := func(dst *jsonv.Value, f float64) {
		if !usage.Verbatim {
			*dst = jsonv.FloatValue(f)
		}
	}
	longWrite := 0.0
	if w := count("cacheWrite1h", usage.CacheWrite1h); !w.IsNullish() {
		longWrite = num(w)
	}
	shortWrite := num(count("cacheWrite", usage.CacheWrite)) - longWrite
	if noNumber {
		return usage.Cost, jsonv.ErrNoPrimitive
	}
	if model.Cost.Missing { // read only after the cache write's difference
		return usage.Cost, ErrNoPrices
	}
	input := (num(model.Cost.Input) / 1000000) * num(count("input", usage.Input))
	if noNumber {
		return usage.Cost, jsonv.ErrNoPrimitive
	}
	set(&usage.Cost.Input, input)
	output := (num(model.Cost.Output) / 1000000) * num(count("output", usage.Output))
	if noNumber {
		return usage.Cost, jsonv.ErrNoPrimitive
	}
	set(&usage.Cost.Output, output)
	cacheRead := (num(model.Cost.CacheRead) / 1000000) * num(count("cacheRead", usage.CacheRead))
	if noNumber {
		return usage.Cost, jsonv.ErrNoPrimitive
	}
	set(&usage.Cost.CacheRead, cacheRead)
	// The explicit conversions forbid fused multiply-add, which JavaScript never uses.
	cacheWrite := (float64(num(model.Cost.CacheWrite)*shortWrite) + float64(num(model.Cost.Input)*2*longWrite)) / 1000000
	if noNumber {
		return usage.Cost, jsonv.ErrNoPrimitive
	}
	set(&usage.Cost.CacheWrite, cacheWrite)
	set(&usage.Cost.Total, input+output+cacheRead+cacheWrite)
	return usage.Cost, nil
}

// ErrNoPrices is CalculateCost's error for a model without prices: Pi's
// calculateCost throws a TypeError reading the first price (input) of the
// missing cost, before it writes anything.
var ErrNoPrices = errors.New("the model has no prices (its cost is missing)")
