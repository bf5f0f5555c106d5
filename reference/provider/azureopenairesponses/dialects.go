package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/provider/openairesponses"
	"github.com/piconform/piconform/reference/transform"
)

// What changed in this API from one Pi release line to the next, each
// difference named once here; the rest of the package reads these and
// nothing else of the dialect. (What it shares with openai-responses is
// that package's.)

// pairedIDProviders is that list in each dialect: Pi 1.6 names Azure's
// provider "azure", and the API's own name is no longer in the list.
var pairedIDProviders = dialect.Table[[]string]{
	dialect.V0_80: ToolCallProviders,
	dialect.V1_6:  append(append([]string(nil), openairesponses.PairedIDProviders...), "azure"),
}

// NormalizeToolCallID is this API's tool-call id normalizer (Pi 0.80's).
var NormalizeToolCallID = openairesponses.ToolCallIDNormalizer(ToolCallProviders)

// normalizeToolCallID is the normalizer of dialect d.
func normalizeToolCallID(d dialect.Dialect) transform.IDNormalizer {
	return openairesponses.ToolCallIDNormalizer(pairedIDProviders.At(d))
}

// azureHosts are the host suffixes Pi takes for Azure's, and basePaths the
// paths (without trailing slashes) it replaces with DefaultPath there, in
// each dialect.
var (
	azureHosts = dialect.Table[[]string]{
		dialect.V0_80: {".openai.azure.com", ".cognitiveservices.azure.com"},
		dialect.V1_6:  {".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"},
	}
	basePaths = dialect.Table[[]string]{
		dialect.V0_80: {"", "/openai"},
		dialect.V1_6:  {"", "/openai", "/openai/v1/responses"},
	}
)
