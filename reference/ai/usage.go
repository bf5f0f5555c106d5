package ai

import "github.com/piconform/piconform/reference/jsonv"

// Usage counts the tokens of one response and what they cost. Every number
// keeps the literal it was read with until CalculateCost replaces the costs.
type Usage struct {
	Input, Output, CacheRead, CacheWrite, TotalTokens jsonv.Value
	// CacheWrite1h is the part of CacheWrite written with one-hour retention;
	// Absent unless the provider reports it.
	CacheWrite1h jsonv.Value
	Cost         Cost
	Extra        []jsonv.Member
}

// Cost is the price of a Usage in dollars.
type Cost struct {
	Input, Output, CacheRead, CacheWrite, Total jsonv.Value
	Extra                                       []jsonv.Member
	// Array is set when the input held an array as the cost: Pi's
	// CalculateCost assigns the prices to it as named members, which JSON
	// never shows, so it is written back as it was.
	Array jsonv.Value
}

// ZeroUsage is the usage of a message that consumed nothing.
func ZeroUsage() Usage {
	zero := jsonv.NumberValue("0")
	return Usage{
		Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, TotalTokens: zero,
		Cost: Cost{Input: zero, Output: zero, CacheRead: zero, CacheWrite: zero, Total: zero},
	}
}

// DecodeUsage reads a Usage object. Pi reads its counts and prices with
// JavaScript's number conversion, so any value is kept as written
// (input.lenient); only a cost that Pi's CalculateCost could not assign to
// (absent, null, or a string, number or boolean) is refused.
func DecodeUsage(v jsonv.Value, ptr string) (Usage, error) {
	f := jsonv.ReadFields(v, ptr)
	u := Usage{
		Input: f.Any("input"), Output: f.Any("output"), CacheRead: f.Any("cacheRead"),
		CacheWrite: f.Any("cacheWrite"), TotalTokens: f.Any("totalTokens"),
		CacheWrite1h: f.Any("cacheWrite1h"),
	}
	cost := f.Any("cost")
	u.Extra = f.Rest()
	if err := f.Err(); err != nil {
		return Usage{}, err
	}
	if cost.Kind() == jsonv.Array {
		u.Cost.Array = cost
		return u, nil
	}
	if cost.Kind() != jsonv.Object {
		return Usage{}, jsonv.Errorf(f.At("cost"), "want an object, got %s", cost.Kind())
	}
	c := jsonv.ReadFields(cost, f.At("cost"))
	u.Cost = Cost{
		Input: c.Any("input"), Output: c.Any("output"), CacheRead: c.Any("cacheRead"),
		CacheWrite: c.Any("cacheWrite"), Total: c.Any("total"),
	}
	u.Cost.Extra = c.Rest()
	return u, c.Err()
}

func (u Usage) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).Set("input", u.Input).Set("output", u.Output)
	o.Set("cacheRead", u.CacheRead).Set("cacheWrite", u.CacheWrite).Set("cacheWrite1h", u.CacheWrite1h)
	o.Set("totalTokens", u.TotalTokens).Set("cost", u.Cost.JSON())
	return o.Extend(u.Extra).Value()
}

func (c Cost) JSON() jsonv.Value {
	if !c.Array.IsAbsent() {
		return c.Array
	}
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
// alone.
func CalculateCost(model *Model, usage *Usage) Cost {
	num := jsonv.Value.JSNumber
	longWrite := 0.0
	if k := usage.CacheWrite1h.Kind(); k != jsonv.Absent && k != jsonv.Null {
		longWrite = num(usage.CacheWrite1h)
	}
	shortWrite := num(usage.CacheWrite) - longWrite
	input := (num(model.Cost.Input) / 1000000) * num(usage.Input)
	output := (num(model.Cost.Output) / 1000000) * num(usage.Output)
	cacheRead := (num(model.Cost.CacheRead) / 1000000) * num(usage.CacheRead)
	// The explicit conversions forbid fused multiply-add, which JavaScript never uses.
	cacheWrite := (float64(num(model.Cost.CacheWrite)*shortWrite) + float64(num(model.Cost.Input)*2*longWrite)) / 1000000
	total := input + output + cacheRead + cacheWrite
	usage.Cost.Input = jsonv.FloatValue(input)
	usage.Cost.Output = jsonv.FloatValue(output)
	usage.Cost.CacheRead = jsonv.FloatValue(cacheRead)
	usage.Cost.CacheWrite = jsonv.FloatValue(cacheWrite)
	usage.Cost.Total = jsonv.FloatValue(total)
	return usage.Cost
}
