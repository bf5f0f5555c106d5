// Package schemastest checks the JSON Schemas under spec/schemas, and lets
// other packages' tests validate documents against them, offline.
package schemastest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// BaseURL is the prefix of every schema's $id.
const BaseURL = "https://piconform.dev/schemas/"

// offline refuses every reference outside spec/schemas: nothing is fetched.
type offline struct{}

func (offline) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not a schema of spec/schemas, and nothing is fetched", url)
}

// Dir is spec/schemas, found from this file so any package's test can use it.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "schemas")
}

// Compile compiles the schema name (such as "report.schema.json") with
// every file of spec/schemas registered under its $id, formats asserted.
func Compile(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(offline{})
	c.AssertFormat()
	err := filepath.WalkDir(Dir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			return fmt.Errorf("%s: no $id", p)
		}
		return c.AddResource(id, doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(BaseURL + name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
