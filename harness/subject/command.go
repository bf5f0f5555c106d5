package subject

import (
	"os"
	"os/exec"
	"strings"
)

// command makes the process for an implementation's command line. A
// command of plain words (quoted as sh quotes them, optionally after
// NAME=value assignments) is run directly, without a shell: then the
// implementation's stdout is the runner's pipe and nothing else's, so an
// implementation that closes it is seen at once (a shell in between keeps
// the pipe open until the timeout). A command that uses more of sh (pipes,
// redirections, ;, &&, $, globs, …) runs with sh -c, and the shell stays
// between the runner and the implementation.
func command(line string) *exec.Cmd {
	words, assignable, ok := splitWords(line)
	var env []string
	for ok && len(words) > 0 && assignable[0] && isAssignment(words[0]) {
		env, words, assignable = append(env, words[0]), words[1:], assignable[1:]
	}
	if !ok || len(words) == 0 {
		return exec.Command("sh", "-c", line)
	}
	cmd := exec.Command(words[0], words[1:]...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	return cmd
}

// shellSpecial are the characters that, unquoted, make a command more than
// words for sh.
const shellSpecial = "|&;<>()$`*?[]#~{}!\n"

// splitWords splits a command line into words as sh does for one that is
// only words: blanks separate them, single quotes keep everything, double
// quotes keep everything but \" \\ \$ \` (and refuse $ and `), a backslash
// keeps the next character. ok is false for anything else sh would read
// differently: an unquoted special character, $ or ` inside double quotes,
// an unterminated quote. assignable tells, for each word, whether it starts
// with an unquoted NAME= (sh reads 'A=1' quoted as a command, not as an
// assignment).
func splitWords(line string) (words []string, assignable []bool, ok bool) {
	var cur strings.Builder
	inWord, quoted := false, false // quoted: a quote came before any '='
	for i := 0; i < len(line); i++ {
		c := line[i]
		if (c == '\'' || c == '"' || c == '\\') && !strings.Contains(cur.String(), "=") {
			quoted = true
		}
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, assignable, inWord = append(words, cur.String()), append(assignable, !quoted), false
				cur.Reset()
			}
			quoted = false
			continue
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, nil, false
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch line[i] {
				case '$', '`':
					return nil, nil, false
				case '\\':
					if i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
						i++
					}
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, nil, false
			}
		case c == '\\':
			if i+1 >= len(line) || line[i+1] == '\n' {
				return nil, nil, false
			}
			i++
			cur.WriteByte(line[i])
		case strings.IndexByte(shellSpecial, c) >= 0:
			return nil, nil, false
		default:
			cur.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words, assignable = append(words, cur.String()), append(assignable, !quoted)
	}
	return words, assignable, true
}

// isAssignment tells whether a word is NAME=value.
func isAssignment(w string) bool {
	name, _, found := strings.Cut(w, "=")
	if !found || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
