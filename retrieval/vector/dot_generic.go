//go:build !amd64 || purego

package vector

// useAVX2 is false: no assembly kernel off amd64 (or with -tags purego).
const useAVX2 = false

// dot is the inner product of a and b, which must be as long as a.
func dot(a, b []float32) float32 { return dotGo(a, b) }

func dotAVX2(a, b *float32, n int) float32 { panic("vector: no AVX2 kernel in this build") }
