module github.com/piconform/piconform

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.5
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sebdah/goldie/v2 v2.8.0
	github.com/spf13/pflag v1.1.0
	gopkg.in/dnaeon/go-vcr.v3 v3.2.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
