package conformance

import "github.com/piconform/piconform/reference/dialect"

// What the case handlers of this package do differently by dialect. (The
// behaviour itself is in the packages they call.)

// firstUsageRead is the member of usage that calculateCost reads first,
// and so the one whose read throws on a null or absent usage: 0.80 starts
// with the one-hour cache writes, 1.6 with the input count it sums for the
// price tiers.
var firstUsageRead = dialect.Table[string]{dialect.V0_80: "cacheWrite1h", dialect.V1_6: "input"}
