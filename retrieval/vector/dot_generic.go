//go:build !amd64 || purego

package vector

// useAVX2 is false: no assembly kernel off amd64 (or with -tags purego).
const useAVX2 = false

// dot is the inner product of a and b, which must be as long as a.
func dot(a, b []float32) float32 { return dotGo(a, b) }

func dotAVX2(a, b *float32, n int) float32 { panic("vector: no AVX2 kernel in this build") }

// dotI8 is the inner product of q and c, which must be as long as q.
func dotI8(q []float32, c []int8) float32 { return dotI8Go(q, c) }

func dotI8AVX2(q *float32, c *int8, n int) float32 { panic("vector: no AVX2 kernel in this build") }

const useAVX512 = false

func dotI8AVX512(q *float32, c *int8, n int) float32 {
	panic("vector: no AVX-512 kernel in this build")
}
