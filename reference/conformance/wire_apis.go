package conformance

import (
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/provider/anthropic"
	"github.com/piconform/piconform/reference/provider/azureopenairesponses"
	"github.com/piconform/piconform/reference/provider/bedrock"
	"github.com/piconform/piconform/reference/provider/google"
	"github.com/piconform/piconform/reference/provider/googlevertex"
	"github.com/piconform/piconform/reference/provider/mistral"
	"github.com/piconform/piconform/reference/provider/openaicodexresponses"
	"github.com/piconform/piconform/reference/provider/openaicompletions"
	"github.com/piconform/piconform/reference/provider/openairesponses"
)

// drivers are the provider APIs the reference drives in wire cases, by
// model.api. Adding an API is adding its package under reference/provider
// and one line here.
var drivers = byAPI(
	anthropic.Driver,
	azureopenairesponses.Driver,
	bedrock.Driver,
	google.Driver,
	googlevertex.Driver,
	mistral.Driver,
	openaicodexresponses.Driver,
	openaicompletions.Driver,
	openairesponses.Driver,
)

func byAPI(ds ...provider.Driver) map[string]provider.Driver {
	m := make(map[string]provider.Driver, len(ds))
	for _, d := range ds {
		m[d.API] = d
	}
	return m
}
