package report

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	info := func(main string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/piconform/piconform", Version: main}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	tests := []struct {
		name   string
		linked string
		read   func() (*debug.BuildInfo, bool)
		want   string
	}{
		{"set at link time", "v9.9.9", info("v1.2.3"), "v9.9.9"},
		{"go install @version", "", info("v1.2.3"), "v1.2.3"},
		{"pseudo-version", "", info("v0.0.0-20261206120000-abcdef123456"), "v0.0.0-20261206120000-abcdef123456"},
		{"a checkout's build", "", info("(devel)", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "false"), "devel+0123456789ab"},
		{"a modified checkout", "", info("(devel)", "vcs.revision", "0123456789abcdef0123", "vcs.modified", "true"), "devel+0123456789ab-dirty"},
		{"no VCS", "", info("(devel)"), "devel"},
		{"no build info", "", none, "devel"},
	}
	for _, tt := range tests {
		if got := buildVersion(tt.linked, tt.read); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
