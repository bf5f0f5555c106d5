package azureopenairesponses

import (
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// Driver is the reference for the azure-openai-responses API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), BuildRequest: provider.Builder(BuildRequest),
	FromSimple: provider.SimpleMapper(FromSimple),
	Failure:    Failure, Retry: provider.StainlessRetry, NoResponseText: provider.ConnectionErrorText,
	AbortText: "", AbortBeforeText: provider.SDKAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that describe the SDK and the machine.
	IncidentalHeaders: openairesponses.Driver.IncidentalHeaders, MachineHeaders: provider.StainlessMachineHeaders,
	IdentityHeaders: provider.ClientIdentity("AzureOpenAI/JS *", provider.StainlessIdentity),
}
