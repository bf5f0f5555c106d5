package ai

import (
	"errors"
	"slices"

	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// Usage counts the tokens of one response and what they cost. Every number
// keeps the literal it was read with until CalculateCost replaces the costs.
type Usage struct {
	Input, Output, CacheRead, CacheWrite, TotalTokens jsonv.Value
	// CacheWrite1h is the part of CacheWrite written with one-hour retention;
	// Absent unless the provider reports it.
	CacheWrite1h jsonv.Value
	// Reasoning is the part of Output spent on reasoning, as a provider
	// stream of Pi 1.6 reports it; Absent where it reports none. A usage
	// read from input keeps it in Extra.
	Reasoning jsonv.Value
	Cost      Cost
	Extra     []jsonv.Member
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

func (u Usage) JSON() jsonv.Value { return u.json(false) }

// json writes the usage; inStreamOrder puts the members in the order a Pi
// 1.6 stream sets them (StreamOrder): the literal it starts from (whose
// reasoning comes before totalTokens), then cacheWrite1h, which the two
// APIs that report it set later.
func (u Usage) json(inStreamOrder bool) jsonv.Value {
	if u.Verbatim {
		return u.Raw
	}
	// A stream reader computes the counts as JavaScript does: NaN is null.
	o := new(jsonv.ObjectBuilder).Set("input", u.Input.Stringified()).Set("output", u.Output.Stringified())
	o.Set("cacheRead", u.CacheRead.Stringified()).Set("cacheWrite", u.CacheWrite.Stringified())
	if !inStreamOrder {
		o.Set("cacheWrite1h", u.CacheWrite1h.Stringified())
	}
	o.Set("reasoning", u.Reasoning.Stringified()).Set("totalTokens", u.TotalTokens.Stringified()).Set("cost", u.Cost.JSON())
	if inStreamOrder {
		o.Set("cacheWrite1h", u.CacheWrite1h.Stringified())
	}
	return o.Extend(u.Extra).Value()
}

// TotalFromProviderKey is the member of a cost, from Pi 1.6 on, that
// tells whether total is what the provider billed (true) or Pi's own sum
// of the model's prices (false; absent means false too).
const TotalFromProviderKey = "totalFromProvider"

// SetTotalFromProvider writes the cost's totalFromProvider as Pi assigns
// it: in place when the cost has it already, else after every member.
func (c *Cost) SetTotalFromProvider(v bool) {
	for i, m := range c.Extra {
		if m.Key == TotalFromProviderKey {
			c.Extra = slices.Clone(c.Extra) // Extra may be shared
			c.Extra[i].Value = jsonv.BoolValue(v)
			return
		}
	}
	c.Extra = append(c.Extra[:len(c.Extra):len(c.Extra)], jsonv.Member{Key: TotalFromProviderKey, Value: jsonv.BoolValue(v)})
}

// TotalFromProvider is the cost's totalFromProvider, Absent when it has none.
func (c Cost) TotalFromProvider() jsonv.Value {
	v, _ := jsonv.ObjectValue(c.Extra...).Get(TotalFromProviderKey)
	return v
}

func (c Cost) JSON() jsonv.Value {
	o := new(jsonv.ObjectBuilder).Set("input", c.Input).Set("output", c.Output)
	o.Set("cacheRead", c.CacheRead).Set("cacheWrite", c.CacheWrite).Set("total", c.Total)
	return o.Extend(c.Extra).Value()
}

// CalculateCost is CalculateCostIn for Pi 0.80.
func CalculateCost(model *Model, usage *Usage) (Cost, error) {
	return CalculateCostIn(dialect.V0_80, model, usage)
}

// CalculateCostIn prices usage as Pi's calculateCost of dialect d does
// and stores the result in usage.Cost: per-million-token prices times the
// counts, with the same double arithmetic in the same order, so the
// results are bit-identical; every count and price is read with
// JavaScript's Number() (a NaN or infinite result is written as null).
// Writes with one-hour retention cost twice the input price; the rest of
// CacheWrite costs the cache-write price. TotalTokens is left alone, and
// so is a Verbatim usage.
//
// From 1.6 on the prices are those of the tier of model.cost.tiers with
// the highest inputTokensAbove that input+cacheRead+cacheWrite (JavaScript's
// +) exceeds, compared as JavaScript's > does, else the model's own; and the
// cost gets totalFromProvider false.
//
// Where Pi throws, it fails with a *CostError holding V8's text, the
// members Pi wrote before the throw written: a model without prices
// (ErrNoPrices: the first read of the missing cost, input in 0.80, tiers
// in 1.6, after the counts it converts first), a count, price or
// threshold with no number form (jsonv.ErrNoPrimitive), and in 1.6 tiers
// that cannot be iterated or hold null (ErrBadTiers).
func CalculateCostIn(d dialect.Dialect, model *Model, usage *Usage) (Cost, error) {
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
	rates := model.Cost.prices()
	tiered := tieredPricing.At(d)
	if tiered {
		inputTokens, err := jsonv.Add(count("input", usage.Input), count("cacheRead", usage.CacheRead))
		if err == nil {
			inputTokens, err = jsonv.Add(inputTokens, count("cacheWrite", usage.CacheWrite))
		}
		if err != nil {
			return usage.Cost, noPrimitive()
		}
		if model.Cost.Missing {
			return usage.Cost, model.Cost.noPrices("tiers")
		}
		if rates, err = model.Cost.tierRates(inputTokens); err != nil {
			return usage.Cost, err
		}
	}
	longWrite := 0.0
	if w := count("cacheWrite1h", usage.CacheWrite1h); !w.IsNullish() {
		longWrite = num(w)
	}
	shortWrite := num(count("cacheWrite", usage.CacheWrite)) - longWrite
	if noNumber {
		return usage.Cost, noPrimitive()
	}
	if model.Cost.Missing { // read only after the cache write's difference
		return usage.Cost, model.Cost.noPrices("input")
	}
	input := (num(rates.input) / 1000000) * num(count("input", usage.Input))
	if noNumber {
		return usage.Cost, noPrimitive()
	}
	set(&usage.Cost.Input, input)
	output := (num(rates.output) / 1000000) * num(count("output", usage.Output))
	if noNumber {
		return usage.Cost, noPrimitive()
	}
	set(&usage.Cost.Output, output)
	cacheRead := (num(rates.cacheRead) / 1000000) * num(count("cacheRead", usage.CacheRead))
	if noNumber {
		return usage.Cost, noPrimitive()
	}
	set(&usage.Cost.CacheRead, cacheRead)
	// The explicit conversions forbid fused multiply-add, which JavaScript never uses.
	cacheWrite := (float64(num(rates.cacheWrite)*shortWrite) + float64(num(rates.input)*2*longWrite)) / 1000000
	if noNumber {
		return usage.Cost, noPrimitive()
	}
	set(&usage.Cost.CacheWrite, cacheWrite)
	set(&usage.Cost.Total, input+output+cacheRead+cacheWrite)
	if tiered && !usage.Verbatim {
		usage.Cost.SetTotalFromProvider(false)
	}
	return usage.Cost, nil
}

// Errors of CalculateCost, inside a *CostError.
var (
	// ErrNoPrices: the model has no prices (its cost is missing).
	ErrNoPrices = errors.New("the model has no prices (its cost is missing)")
	// ErrBadTiers: the model's price tiers cannot be read (Pi 1.6).
	ErrBadTiers = errors.New("the model's price tiers cannot be read")
)

// CostError is what Pi's calculateCost throws: Err says why (ErrNoPrices,
// ErrBadTiers or jsonv.ErrNoPrimitive), Msg is V8's TypeError text.
type CostError struct {
	Err error
	Msg string
}

func (e *CostError) Error() string { return e.Msg }
func (e *CostError) Unwrap() error { return e.Err }

func noPrimitive() error {
	return &CostError{Err: jsonv.ErrNoPrimitive, Msg: jsonv.NoPrimitiveText}
}

// noPrices is the throw of reading key of the missing cost.
func (c ModelCost) noPrices(key string) error {
	cost := jsonv.Value{}
	if c.Null {
		cost = jsonv.NullValue()
	}
	return &CostError{Err: ErrNoPrices, Msg: jsonv.ReadPropertyText(cost, key)}
}

// rates are the four prices calculateCost reads: the model's, or a tier's.
type rates struct{ input, output, cacheRead, cacheWrite jsonv.Value }

func (c ModelCost) prices() rates {
	return rates{c.Input, c.Output, c.CacheRead, c.CacheWrite}
}

// Tiers is the cost's tiers member as written, Absent when it has none.
func (c ModelCost) Tiers() jsonv.Value {
	v, _ := jsonv.ObjectValue(c.Extra...).Get("tiers")
	return v
}

// tierRates picks the prices for inputTokens as Pi 1.6 does: it goes
// through tiers (nullish: none) in order and takes a tier whose
// inputTokensAbove inputTokens exceeds and which exceeds the threshold
// taken so far (-1 at first), both with JavaScript's >. A string iterates
// as its characters, which have no threshold; a number, a boolean or an
// object cannot be iterated, and a null element has no members: Pi
// throws.
func (c ModelCost) tierRates(inputTokens jsonv.Value) (rates, error) {
	out := c.prices()
	tiers := c.Tiers()
	switch tiers.Kind() {
	case jsonv.Absent, jsonv.Null, jsonv.String:
		return out, nil
	case jsonv.Array:
	default:
		return out, &CostError{Err: ErrBadTiers, Msg: jsonv.NotIterableText(tiers)}
	}
	matched := jsonv.NumberValue("-1")
	for _, tier := range tiers.Elems() {
		if tier.IsNullish() {
			return out, &CostError{Err: ErrBadTiers, Msg: jsonv.ReadPropertyText(tier, "inputTokensAbove")}
		}
		var above jsonv.Value
		if tier.Kind() == jsonv.Object {
			above, _ = tier.Get("inputTokensAbove")
		}
		over, err := jsonv.Greater(inputTokens, above)
		if err == nil && over {
			over, err = jsonv.Greater(above, matched)
		}
		if err != nil {
			return out, noPrimitive()
		}
		if over {
			get := func(key string) jsonv.Value { v, _ := tier.Get(key); return v }
			out, matched = rates{get("input"), get("output"), get("cacheRead"), get("cacheWrite")}, above
		}
	}
	return out, nil
}
