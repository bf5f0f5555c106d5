package azureopenairesponses

import (
	"errors"
	"testing"

	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/transform"
)

func TestLenientOptions(t *testing.T) {
	const model = `{"id":"gpt-5","api":"azure-openai-responses","provider":"azure-openai-responses","baseUrl":"https://r.openai.azure.com","reasoning":true,"input":["text"]}`
	for _, tc := range []struct {
		name, opts    string
		url, bodyHead string
	}{
		{"deployment of another type", `{"azureDeploymentName":7}`, "https://r.openai.azure.com/openai/v1/responses?api-version=v1", `7`},
		{"falsy deployment", `{"azureDeploymentName":0}`, "https://r.openai.azure.com/openai/v1/responses?api-version=v1", `"gpt-5"`},
		{"api version a number", `{"azureApiVersion":2024}`, "https://r.openai.azure.com/openai/v1/responses?api-version=2024", `"gpt-5"`},
		{"api version an empty object", `{"azureApiVersion":{}}`, "https://r.openai.azure.com/openai/v1/responses", `"gpt-5"`},
		{"api version nested", `{"azureApiVersion":{"a":[1,null]}}`, "https://r.openai.azure.com/openai/v1/responses?api-version%5Ba%5D%5B%5D=1&api-version%5Ba%5D%5B%5D=", `"gpt-5"`},
		{"falsy api version", `{"azureApiVersion":false}`, "https://r.openai.azure.com/openai/v1/responses?api-version=v1", `"gpt-5"`},
		{"null base URL", `{"azureBaseUrl":null}`, "https://r.openai.azure.com/openai/v1/responses?api-version=v1", `"gpt-5"`},
		{"resource name of another type", `{"azureResourceName":9}`, "https://9.openai.azure.com/openai/v1/responses?api-version=v1", `"gpt-5"`},
		{"resource name whose String() is empty", `{"azureResourceName":[]}`, "https://.openai.azure.com/openai/v1/responses?api-version=v1", `"gpt-5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := capturetest.BuildCall(t, Driver, model, `{"messages":[]}`, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if call.URL != tc.url {
				t.Errorf("URL = %s, want %s", call.URL, tc.url)
			}
			if got, _ := call.Body.Get("model"); got.String() != tc.bodyHead {
				t.Errorf("model = %s, want %s", got, tc.bodyHead)
			}
		})
	}
	for _, base := range []string{`7`, `false`, `{}`} {
		if _, err := capturetest.BuildCall(t, Driver, model, `{"messages":[]}`, `{"azureBaseUrl":`+base+`}`); !errors.Is(err, transform.ErrThrows) {
			t.Errorf("azureBaseUrl %s: error = %v, want transform.ErrThrows (Pi trims it)", base, err)
		}
	}
}
