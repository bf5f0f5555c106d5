// Package secret knows what credentials look like: the keys and tokens of
// the services Pi talks to and of others a developer's environment holds,
// bearer and Basic credentials, user:password in URLs, PEM private keys,
// and AWS secret access keys. The cassette gate refuses a recording that
// holds one (Find), and every output masks them (Mask), so that a
// credential an implementation picked up from its environment and sent
// (in a custom header, a query string, a body) is printed by no report.
package secret

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// Masked stands in an output for what Mask hides.
const Masked = "[masked]"

// A pattern is one shape of credential. Its expression's first group is
// what a mask keeps before Masked (the literal start that says what kind
// of credential it was), its second, if any, what it keeps after. hint is
// a literal any match holds (in lower case when fold is set), so a long
// text is searched with the expression only when the hint is in it; check,
// when set, must also accept the match.
type pattern struct {
	hint  string
	fold  bool
	re    *regexp.Regexp
	check func(match string) bool
	why   string
}

// patterns are tried in order; a mask of an earlier one hides what a later
// one would find in the same text (a bearer token that is also a JWT).
var patterns = []pattern{
	// The body of a PEM key runs to its END line: in a text, or in JSON
	// text whose strings escape the line breaks (twice, for JSON text in a
	// JSON string); an encrypted key's header lines (Proc-Type: …) come
	// first.
	{"-----begin ", true, regexp.MustCompile(`(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----)(?:\s*[A-Za-z-]+:[^\r\n\\]*(?:\r?\n|(?:\\+r)?\\+n))*(?:[A-Za-z0-9+/= \t\r\n]|\\+[nrt])*(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?`), nil, "a PEM private key (-----BEGIN … PRIVATE KEY-----)"},
	{"bearer", true, regexp.MustCompile(`(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{4,}`), isToken, "a bearer token (Bearer …)"},
	{"basic", true, regexp.MustCompile(`(?i)\b(basic\s+)[A-Za-z0-9+/]{4,}={0,2}`), isBasicCredential, "HTTP Basic credentials (Basic …)"},
	{"://", false, regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#@:"'<>\\]+:[^\s/?#@"'<>\\]+(@)`), nil, "a user and password in a URL (scheme://user:password@…)"},
	{"sk-ant-", false, regexp.MustCompile(`(sk-ant-)[A-Za-z0-9_-]{4,}`), nil, "an Anthropic key (sk-ant-…)"},
	{"sk-", false, regexp.MustCompile(`\b(sk-)[A-Za-z0-9_-]{8,}`), nil, "a secret key (sk-…)"},
	{"k_live_", false, regexp.MustCompile(`\b([rs]k_live_)[A-Za-z0-9]{8,}`), nil, "a Stripe live key (sk_live_…, rk_live_…)"},
	{"gh", false, regexp.MustCompile(`\b(gh[pousr]_)[A-Za-z0-9]{20,}`), nil, "a GitHub token (ghp_…)"},
	{"github_pat_", false, regexp.MustCompile(`\b(github_pat_)[A-Za-z0-9_]{20,}`), nil, "a GitHub token (github_pat_…)"},
	{"AIza", false, regexp.MustCompile(`\b(AIza)[0-9A-Za-z_-]{10,}`), nil, "a Google API key (AIza…)"},
	{"ya29.", false, regexp.MustCompile(`\b(ya29\.)[0-9A-Za-z_-]{10,}`), nil, "a Google OAuth access token (ya29.…)"},
	{"xox", false, regexp.MustCompile(`\b(xox[abposr]-)[0-9A-Za-z-]{10,}`), nil, "a Slack token (xoxb-…)"},
	{"hf_", false, regexp.MustCompile(`\b(hf_)[A-Za-z0-9]{20,}`), nil, "a Hugging Face token (hf_…)"},
	// AWS: an access key id as AWS issues them, and a SigV4 authorization
	// value, which names the access key id it was signed with.
	{"A", false, regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), nil, "an AWS access key id (AKIA…, ASIA…)"},
	{"AWS4-HMAC-SHA256", false, regexp.MustCompile(`(AWS4-HMAC-SHA256\s+Credential=)[^\s,"]*`), nil, "a SigV4 signature (AWS4-HMAC-SHA256 Credential=…)"},
	// A JWT (an OAuth access token such as ChatGPT's): its header is a JSON
	// object, so it starts "eyJ", then a dot and the payload.
	{"eyJ", false, regexp.MustCompile(`\b(eyJ)[A-Za-z0-9_=-]{4,}\.[A-Za-z0-9_=-]{4,}(?:\.[A-Za-z0-9_=-]+)?`), nil, "a JWT (eyJ….…)"},
}

// isToken tells whether the token of "Bearer <token>" looks like one: it
// holds a digit, an upper-case letter after its first character, or a
// punctuation mark, as a random token does and the word after "bearer" in
// prose ("a bearer token") does not.
func isToken(match string) bool {
	fields := strings.Fields(match)
	tok := strings.TrimRight(fields[len(fields)-1], ".") // the end of a sentence
	return len(tok) >= 4 && strings.ContainsAny(tok, "0123456789._~+/=-") || strings.ContainsAny(tok[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// isBasicCredential tells whether the token of "Basic <token>" is base64
// of user:password, as HTTP Basic credentials are, and not a word that
// follows "basic" in prose.
func isBasicCredential(match string) bool {
	fields := strings.Fields(match)
	tok := fields[len(fields)-1]
	data, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(tok, "="))
	}
	if err != nil || !strings.Contains(string(data), ":") {
		return false
	}
	for _, c := range data {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// A Finding is one credential-like text.
type Finding struct {
	Text string
	Why  string
}

// Find lists the credentials in text, one per kind at most.
func Find(text string) []Finding {
	var out []Finding
	lower := ""
	for _, p := range patterns {
		if !p.mayHold(text, &lower) {
			continue
		}
		for _, m := range p.re.FindAllString(text, -1) {
			if p.check == nil || p.check(m) {
				out = append(out, Finding{Text: m, Why: p.why})
				break
			}
		}
	}
	if k := findAWSSecret(text); k != "" {
		out = append(out, Finding{Text: k, Why: "an AWS secret access key (40 characters of base64)"})
	}
	return out
}

func (p pattern) mayHold(text string, lower *string) bool {
	if !p.fold {
		return strings.Contains(text, p.hint)
	}
	if *lower == "" {
		*lower = strings.ToLower(text)
	}
	return strings.Contains(*lower, p.hint)
}

// Mask replaces each credential in text by what says its kind (its literal
// start: "sk-ant-", "Bearer ", "https://") and Masked. Text without one is
// returned as it is. What Mask writes is safe inside a JSON string, so a
// JSON text masked stays JSON.
func Mask(text string) string {
	lower := ""
	for _, p := range patterns {
		if !p.mayHold(text, &lower) {
			continue
		}
		text = p.mask(text)
		lower = ""
	}
	return maskAWSSecrets(text)
}

func (p pattern) mask(text string) string {
	idx := p.re.FindAllStringSubmatchIndex(text, -1)
	if idx == nil {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		hidden := m[1]
		if len(m) > 5 && m[4] >= 0 {
			hidden = m[4]
		}
		if hidden == m[3] || p.check != nil && !p.check(text[m[0]:m[1]]) {
			continue // nothing to hide (a PEM line whose key is masked already), or a look-alike
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(text[m[2]:m[3]])
		b.WriteString(Masked)
		if len(m) > 5 && m[4] >= 0 {
			b.WriteString(text[m[4]:m[5]])
		}
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// isB64 tells whether c can be in an AWS secret access key.
func isB64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '/' || c == '+'
}

// awsSecrets yields the AWS secret access keys in text: exactly 40
// characters of base64 standing alone (a run of them, not followed by
// padding), mixing upper case, lower case and digits, as a random key does
// and words, hex digests and paths rarely do; as start and end offsets.
func awsSecrets(text string, yield func(i, j int) bool) {
	for i := 0; i < len(text); {
		if !isB64(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isB64(text[j]) {
			j++
		}
		if run := text[i:j]; len(run) == 40 && (j == len(text) || text[j] != '=') &&
			strings.ContainsAny(run, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(run, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(run, "0123456789") {
			if !yield(i, j) {
				return
			}
		}
		i = j
	}
}

func findAWSSecret(text string) string {
	found := ""
	awsSecrets(text, func(i, j int) bool { found = text[i:j]; return false })
	return found
}

// maskAWSSecrets masks the AWS secret access keys in text, except a run
// with more than two slashes: what an output prints is full of file paths,
// and a random key seldom holds three.
func maskAWSSecrets(text string) string {
	var b strings.Builder
	last := 0
	awsSecrets(text, func(i, j int) bool {
		if strings.Count(text[i:j], "/") > 2 {
			return true
		}
		b.WriteString(text[last:i])
		b.WriteString(Masked)
		last = j
		return true
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
