package ai_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

// TestCalculateCost16: msg.cost in Pi 1.6 (MSG-111, MSG-112, MSG-113).
// Expected usages and texts printed by calculateCost of pi-ai 1.6.0 under
// Node 22.
func TestCalculateCost16(t *testing.T) {
	const (
		prices = `"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75`
		tier   = `{"input":6,"output":22.5,"cacheRead":0.6,"cacheWrite":7.5,"inputTokensAbove":200000}`
		zero   = `"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}`
	)
	for _, tc := range []struct {
		name, cost, usage string
		want              string // the usage after, or V8's text of the throw
		wantErr           error
	}{
		{"no tiers: 0.80's numbers and the flag", `{` + prices + `}`,
			`{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,` + zero + `}`,
			`{"input":1000,"output":500,"cacheRead":2000,"cacheWrite":400,"cacheWrite1h":100,"totalTokens":3900,"cost":{"input":0.003,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.001725,"total":0.012825,"totalFromProvider":false}}`, nil},
		{"input exactly at the threshold: base prices", `{` + prices + `,"tiers":[` + tier + `]}`,
			`{"input":197600,"output":500,"cacheRead":2000,"cacheWrite":400,"totalTokens":1,` + zero + `}`,
			`{"input":197600,"output":500,"cacheRead":2000,"cacheWrite":400,"totalTokens":1,"cost":{"input":0.5928,"output":0.007500000000000001,"cacheRead":0.0006,"cacheWrite":0.0015,"total":0.6023999999999999,"totalFromProvider":false}}`, nil},
		{"one above the threshold: the tier's prices", `{` + prices + `,"tiers":[` + tier + `]}`,
			`{"input":197601,"output":500,"cacheRead":2000,"cacheWrite":400,"totalTokens":1,` + zero + `}`,
			`{"input":197601,"output":500,"cacheRead":2000,"cacheWrite":400,"totalTokens":1,"cost":{"input":1.185606,"output":0.011250000000000001,"cacheRead":0.0012,"cacheWrite":0.003,"total":1.201056,"totalFromProvider":false}}`, nil},
		{"the highest threshold below wins, whatever the order", `{` + prices + `,"tiers":[{"inputTokensAbove":500,"input":9,"output":0,"cacheRead":0,"cacheWrite":0},{"inputTokensAbove":200,"input":7,"output":0,"cacheRead":0,"cacheWrite":0}]}`,
			`{"input":300,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			`{"input":300,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,"cost":{"input":0.0021,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.0021,"totalFromProvider":false}}`, nil},
		{"a tier without a price: null", `{` + prices + `,"tiers":[{"inputTokensAbove":0,"input":1,"output":1,"cacheRead":1}]}`,
			`{"input":100,"output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":1,` + zero + `}`,
			`{"input":100,"output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":1,"cost":{"input":0.00009999999999999999,"output":0.000009999999999999999,"cacheRead":0.0000049999999999999996,"cacheWrite":null,"total":null,"totalFromProvider":false}}`, nil},
		{"string counts join, then compare as text", `{` + prices + `,"tiers":[{"inputTokensAbove":99,"input":1,"output":1,"cacheRead":1,"cacheWrite":1},{"inputTokensAbove":"1000","input":7,"output":1,"cacheRead":1,"cacheWrite":1}]}`,
			`{"input":"100","output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":117,` + zero + `}`,
			`{"input":"100","output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":117,"cost":{"input":0.0007,"output":0.000009999999999999999,"cacheRead":0.0000049999999999999996,"cacheWrite":0.000002,"total":0.0007170000000000001,"totalFromProvider":false}}`, nil},
		{"tiers a string: its characters have no threshold", `{` + prices + `,"tiers":"ab"}`,
			`{"input":100,"output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":117,` + zero + `}`,
			`{"input":100,"output":10,"cacheRead":5,"cacheWrite":2,"totalTokens":117,"cost":{"input":0.00030000000000000003,"output":0.00015000000000000001,"cacheRead":0.0000015,"cacheWrite":0.0000075,"total":0.00045900000000000004,"totalFromProvider":false}}`, nil},
		// Pi overwrites it where it stands; a decoded cost writes its
		// five members first, whatever the input's order.
		{"a stale true flag is overwritten", `{` + prices + `}`,
			`{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,"cost":{"totalFromProvider":true,"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":5}}`,
			`{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,"cost":{"input":0.000003,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.000003,"totalFromProvider":false}}`, nil},
		{"tiers a number", `{` + prices + `,"tiers":5}`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"number 5 is not iterable (cannot read property Symbol(Symbol.iterator))", ai.ErrBadTiers},
		{"tiers a boolean", `{` + prices + `,"tiers":true}`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"boolean true is not iterable (cannot read property Symbol(Symbol.iterator))", ai.ErrBadTiers},
		{"tiers an object", `{` + prices + `,"tiers":{}}`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"object is not iterable (cannot read property Symbol(Symbol.iterator))", ai.ErrBadTiers},
		{"a null tier", `{` + prices + `,"tiers":[null]}`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"Cannot read properties of null (reading 'inputTokensAbove')", ai.ErrBadTiers},
		{"a threshold with no primitive", `{` + prices + `,"tiers":[{"inputTokensAbove":{"toString":1}}]}`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"Cannot convert object to primitive value", jsonv.ErrNoPrimitive},
		{"a count with no primitive throws before the missing cost", ``, `{"input":{"toString":1},"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"Cannot convert object to primitive value", jsonv.ErrNoPrimitive},
		{"no cost: reading tiers", ``, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"Cannot read properties of undefined (reading 'tiers')", ai.ErrNoPrices},
		{"a null cost: reading tiers", `null`, `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,` + zero + `}`,
			"Cannot read properties of null (reading 'tiers')", ai.ErrNoPrices},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := `{"id":"m","api":"a","provider":"p","baseUrl":"","input":["text"]}`
			if tc.cost != "" {
				model = `{"id":"m","api":"a","provider":"p","baseUrl":"","input":["text"],"cost":` + tc.cost + `}`
			}
			m, err := ai.DecodeWireModel(parse(t, model), "")
			if err != nil {
				t.Fatal(err)
			}
			u := ai.DecodeUsage(parse(t, tc.usage), "")
			_, err = ai.CalculateCostIn(dialect.V1_6, m, &u)
			if tc.wantErr != nil {
				var ce *ai.CostError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &ce) || ce.Msg != tc.want {
					t.Fatalf("err = %v, want %q (%v)", err, tc.want, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, u.JSON().String()); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
			// 0.80 never writes the flag and never reads tiers.
			u80 := ai.DecodeUsage(parse(t, tc.usage), "")
			if _, err := ai.CalculateCostIn(dialect.V0_80, m, &u80); err != nil {
				t.Fatal(err)
			}
			if tf := u80.Cost.TotalFromProvider(); tf.Kind() == jsonv.Bool && !tf.Bool() {
				t.Errorf("0.80 wrote totalFromProvider false")
			}
		})
	}
}

// TestCalculateCostNoPricesText: the throws of a model without prices
// name the member Pi reads first: input in 0.80, tiers in 1.6.
func TestCalculateCostNoPricesText(t *testing.T) {
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.V0_80, "Cannot read properties of undefined (reading 'input')"},
		{dialect.V1_6, "Cannot read properties of undefined (reading 'tiers')"},
	} {
		m, err := ai.DecodeWireModel(parse(t, `{"id":"m","api":"a","provider":"p","baseUrl":"","input":["text"]}`), "")
		if err != nil {
			t.Fatal(err)
		}
		u := ai.ZeroUsage()
		_, err = ai.CalculateCostIn(tc.d, m, &u)
		if err == nil || err.Error() != tc.want || !errors.Is(err, ai.ErrNoPrices) {
			t.Errorf("%s: err = %v, want %q", tc.d, err, tc.want)
		}
	}
}

// TestAssistantMessageOrder: a message a 1.6 stream built is written with
// its members in the order Pi's stream sets them (MSG-102); any other
// keeps the reference's fixed order, whatever the fields hold.
func TestAssistantMessageOrder(t *testing.T) {
	id, model, msg := "r1", "m2", "boom"
	build := func(d dialect.Dialect) *ai.AssistantMessage {
		u := ai.ZeroUsage()
		u.Reasoning = jsonv.NumberValue("3")
		u.CacheWrite1h = jsonv.NumberValue("0")
		u.Cost.SetTotalFromProvider(false)
		return &ai.AssistantMessage{
			Content: []ai.Block{}, API: "a", Provider: "p", Model: "m", ResponseID: &id, ResponseModel: &model,
			Usage: u, StopReason: ai.StopError, ErrorMessage: &msg, Timestamp: jsonv.NumberValue("1"),
			RawStopReason: jsonv.StringValue("end_turn"), DurationMs: jsonv.NumberValue("7"), Dialect: d,
		}
	}
	const cost = `"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0,"totalFromProvider":false}`
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.V1_6, `{"role":"assistant","content":[],"api":"a","provider":"p","model":"m",` +
			`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"reasoning":3,"totalTokens":0,` + cost + `,"cacheWrite1h":0},` +
			`"stopReason":"error","timestamp":1,"responseId":"r1","responseModel":"m2","rawStopReason":"end_turn","errorMessage":"boom","durationMs":7}`},
		{dialect.V0_80, `{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","responseModel":"m2","responseId":"r1",` +
			`"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cacheWrite1h":0,"reasoning":3,"totalTokens":0,` + cost + `},` +
			`"stopReason":"error","errorMessage":"boom","timestamp":1,"rawStopReason":"end_turn","durationMs":7}`},
	} {
		if diff := cmp.Diff(tc.want, build(tc.d).JSON().String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.d, diff)
		}
	}
}
