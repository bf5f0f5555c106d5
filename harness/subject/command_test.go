package subject

import (
	"slices"
	"testing"
)

// TestCommand: a command of plain words runs without a shell, split as sh
// splits it; anything more of sh goes to sh -c.
func TestCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		args []string // nil: sh -c line
		env  []string
	}{
		{"./adapter", []string{"./adapter"}, nil},
		{"python3 my_adapter.py --fast", []string{"python3", "my_adapter.py", "--fast"}, nil},
		{"  node   driver.mjs  ", []string{"node", "driver.mjs"}, nil},
		{`'/path with space/run.sh' "0.73.1"`, []string{"/path with space/run.sh", "0.73.1"}, nil},
		{`run.sh it\'s "a \"b\" \\ c" ''`, []string{"run.sh", "it's", `a "b" \ c`, ""}, nil},
		{`A=1 B='x y' ./fake --v`, []string{"./fake", "--v"}, []string{"A=1", "B=x y"}},
		{"go run ./adapters/example-go", []string{"go", "run", "./adapters/example-go"}, nil},
		{"cd x && ./run", nil, nil},
		{"./a | tee log", nil, nil},
		{"./a 2>/dev/null", nil, nil},
		{"./a; ./b", nil, nil},
		{"$HOME/adapter", nil, nil},
		{`"$HOME/adapter"`, nil, nil},
		{"./adapter *.json", nil, nil},
		{"./a 'unterminated", nil, nil},
		{"A=1", nil, nil},
		{`'A=1' ./fake`, []string{"A=1", "./fake"}, nil},
		{`"A"=1 ./fake`, []string{"A=1", "./fake"}, nil},
		{`A='=1' ./fake`, []string{"./fake"}, []string{"A==1"}},
		{"", nil, nil},
	}
	for _, tt := range tests {
		cmd := command(tt.line)
		want := tt.args
		if want == nil {
			want = []string{"sh", "-c", tt.line}
		}
		if !slices.Equal(cmd.Args, want) {
			t.Errorf("command(%q).Args = %q, want %q", tt.line, cmd.Args, want)
		}
		var env []string
		if cmd.Env != nil {
			env = cmd.Env[len(cmd.Env)-len(tt.env):]
		}
		if !slices.Equal(env, tt.env) {
			t.Errorf("command(%q) adds env %q, want %q", tt.line, env, tt.env)
		}
	}
}
