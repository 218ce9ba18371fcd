package llm

import (
	"strings"
	"testing"
)

// A key that an escape code splits is masked all the same: the text is
// cleaned before the secrets are looked for.
func TestSafeDetailMasksASplitKey(t *testing.T) {
	const key = "sk-test-s3cret-0123"
	for _, s := range []string{
		"echo: test-s3c\x1b[0mret-0123",
		"echo: sk-test-s3\x1b]0;x\x07cret-0123 and more",
		"plain sk-test-s3cret-0123",
	} {
		if got := safeDetail(s, 120, key); strings.Contains(got, "s3cret") {
			t.Errorf("safeDetail(%q) = %q shows the key", s, got)
		}
	}
}
