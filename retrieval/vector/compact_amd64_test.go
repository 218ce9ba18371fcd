//go:build amd64 && !purego

package vector

import "testing"

// TestCompactSearchAVX2: where the CPU has AVX-512 the other tests run
// its kernel; this one runs the compact search again on the AVX2 kernel,
// which CPUs without AVX-512 use.
func TestCompactSearchAVX2(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512: the other tests already run the AVX2 kernel")
	}
	useAVX512 = false
	defer func() { useAVX512 = true }()
	checkCompactEqualsScan(t, []int{37, 256})
}
