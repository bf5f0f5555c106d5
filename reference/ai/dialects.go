package ai

import "github.com/piconform/piconform/reference/dialect"

// What changed in the Message layer (its roles, the answer's members) and
// in calculateCost from one Pi release line to the next, each difference
// named once here; the code reads these and nothing else of the dialect.

// messageRoles are the Message layer's roles in each dialect: 1.6 adds
// the system role (SystemMessage).
var messageRoles = dialect.Table[[]string]{
	dialect.V0_80: {RoleUser, RoleAssistant, RoleToolResult},
	dialect.V1_6:  {RoleSystem, RoleUser, RoleAssistant, RoleToolResult},
}

// streamOrder tells whether the messages a provider stream of a dialect
// builds are written with their members in the order Pi's stream sets
// them: the literal it starts from (role, content, api, provider, model,
// usage, stopReason, timestamp), then responseId, responseModel,
// rawStopReason, errorMessage, diagnostics, the rest, and durationMs, which
// the event stream adds last. For 0.80 the reference keeps its own fixed
// order (responseModel and responseId before usage, errorMessage and
// diagnostics before timestamp), which every 0.80 golden was written in.
var streamOrder = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}

// tieredPricing tells whether calculateCost picks a price tier by the
// input counts (model.cost.tiers) and marks the cost as its own
// (totalFromProvider false): from Pi 1.6 on.
var tieredPricing = dialect.Table[bool]{dialect.V0_80: false, dialect.V1_6: true}
