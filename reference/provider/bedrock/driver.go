package bedrock

import "github.com/piconform/piconform/reference/provider"

// Driver is the reference for the bedrock-converse-stream API.
var Driver = provider.Driver{
	API: API, DecodeOptions: provider.Decoder(DecodeOptions), Build: provider.Streamer(Build),
	FromSimple: provider.SimpleMapper(FromSimple), LenientContext: true, FoldsSystemMessages: true,
	Client: func() provider.Client {
		c := client
		c.Later = laterClients
		return c
	}(),
}

// client is the AWS SDK as Pi 0.80 uses it.
var client = provider.Client{
	Retry: Retry, NoResponseText: ConnectionErrorText,
	AbortText: AbortText, AbortBeforeText: provider.RequestAbortedText,
	// IncidentalHeaders are the request headers (lower-case path.Match
	// patterns) that change with every request or describe the SDK and the
	// machine: the SigV4 date and payload hash, the SDK's invocation id, and
	// both user agents. Conformance checks leave them out; the credential
	// (authorization) is kept, redacted, so a request without one fails, and
	// so is the attempt counter amz-sdk-request (Retry).
	IncidentalHeaders: []string{"x-amz-date", "x-amz-content-sha256", "amz-sdk-invocation-id", "user-agent", "x-amz-user-agent"},
	IdentityHeaders: provider.ClientIdentity("aws-sdk-js/*",
		provider.IdentityHeader{Name: "x-amz-user-agent", Value: "*"},
		provider.IdentityHeader{Name: "amz-sdk-invocation-id", Value: "*"},
		provider.IdentityHeader{Name: "amz-sdk-request", Value: "*"}),
}

// AbortText is the error the AWS SDK's reading of the body throws when the
// caller aborts: Node's for a response whose request was destroyed.
const AbortText = "aborted"
