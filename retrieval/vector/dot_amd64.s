//go:build amd64 && !purego

#include "textflag.h"

// func dotAVX2(a, b *float32, n int) float32
//
// 32 components a step in four independent accumulators (so that each
// FMA's latency overlaps the next three), then 8 a step, then the sum of
// the accumulators' lanes, then the last n mod 8 one at a time.
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS     (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         loop8

reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0

tail:
	CMPQ CX, $0
	JE   done
	VMOVSS      (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	DECQ        CX
	JMP         tail

done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotI8AVX2(q *float32, c *int8, n int) float32
//
// dotAVX2's loop with c read as int8: VPMOVSXBD widens eight of them to
// int32, VCVTDQ2PS makes them float32 (exactly: |c| ≤ 128), and the FMA
// takes q from memory. 64 components a step in eight accumulators (an
// FMA's latency is four cycles and two can start a cycle: with four
// accumulators the loop waited on them, 85 ns at 1536), then 8, then one
// at a time.
TEXT ·dotI8AVX2(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

i8loop64:
	CMPQ CX, $64
	JL   i8loop8
	VPMOVSXBD   (DI), Y8
	VPMOVSXBD   8(DI), Y9
	VPMOVSXBD   16(DI), Y10
	VPMOVSXBD   24(DI), Y11
	VPMOVSXBD   32(DI), Y12
	VPMOVSXBD   40(DI), Y13
	VPMOVSXBD   48(DI), Y14
	VPMOVSXBD   56(DI), Y15
	VCVTDQ2PS   Y8, Y8
	VCVTDQ2PS   Y9, Y9
	VCVTDQ2PS   Y10, Y10
	VCVTDQ2PS   Y11, Y11
	VCVTDQ2PS   Y12, Y12
	VCVTDQ2PS   Y13, Y13
	VCVTDQ2PS   Y14, Y14
	VCVTDQ2PS   Y15, Y15
	VFMADD231PS (SI), Y8, Y0
	VFMADD231PS 32(SI), Y9, Y1
	VFMADD231PS 64(SI), Y10, Y2
	VFMADD231PS 96(SI), Y11, Y3
	VFMADD231PS 128(SI), Y12, Y4
	VFMADD231PS 160(SI), Y13, Y5
	VFMADD231PS 192(SI), Y14, Y6
	VFMADD231PS 224(SI), Y15, Y7
	ADDQ        $256, SI
	ADDQ        $64, DI
	SUBQ        $64, CX
	JMP         i8loop64

i8loop8:
	CMPQ CX, $8
	JL   i8reduce
	VPMOVSXBD   (DI), Y8
	VCVTDQ2PS   Y8, Y8
	VFMADD231PS (SI), Y8, Y0
	ADDQ        $32, SI
	ADDQ        $8, DI
	SUBQ        $8, CX
	JMP         i8loop8

i8reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y5, Y4, Y4
	VADDPS       Y7, Y6, Y6
	VADDPS       Y2, Y0, Y0
	VADDPS       Y6, Y4, Y4
	VADDPS       Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0

i8tail:
	CMPQ CX, $0
	JE   i8done
	MOVBLSX     (DI), AX
	VCVTSI2SSL  AX, X1, X1
	VFMADD231SS (SI), X1, X0
	ADDQ        $4, SI
	INCQ        DI
	DECQ        CX
	JMP         i8tail

i8done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotI8AVX512(q *float32, c *int8, n int) float32
//
// dotI8AVX2 sixteen lanes wide: half the instructions a component, where
// a busy core, not memory, limits the compact scan. 128 components a step
// in eight accumulators, then the ymm loop of 8, then one at a time.
TEXT ·dotI8AVX512(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), SI
	MOVQ c+8(FP), DI
	MOVQ n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7

z8loop128:
	CMPQ CX, $128
	JL   z8reduce
	VPMOVSXBD   (DI), Z8
	VPMOVSXBD   16(DI), Z9
	VPMOVSXBD   32(DI), Z10
	VPMOVSXBD   48(DI), Z11
	VPMOVSXBD   64(DI), Z12
	VPMOVSXBD   80(DI), Z13
	VPMOVSXBD   96(DI), Z14
	VPMOVSXBD   112(DI), Z15
	VCVTDQ2PS   Z8, Z8
	VCVTDQ2PS   Z9, Z9
	VCVTDQ2PS   Z10, Z10
	VCVTDQ2PS   Z11, Z11
	VCVTDQ2PS   Z12, Z12
	VCVTDQ2PS   Z13, Z13
	VCVTDQ2PS   Z14, Z14
	VCVTDQ2PS   Z15, Z15
	VFMADD231PS (SI), Z8, Z0
	VFMADD231PS 64(SI), Z9, Z1
	VFMADD231PS 128(SI), Z10, Z2
	VFMADD231PS 192(SI), Z11, Z3
	VFMADD231PS 256(SI), Z12, Z4
	VFMADD231PS 320(SI), Z13, Z5
	VFMADD231PS 384(SI), Z14, Z6
	VFMADD231PS 448(SI), Z15, Z7
	ADDQ        $512, SI
	ADDQ        $128, DI
	SUBQ        $128, CX
	JMP         z8loop128

z8reduce:
	VADDPS        Z1, Z0, Z0
	VADDPS        Z3, Z2, Z2
	VADDPS        Z5, Z4, Z4
	VADDPS        Z7, Z6, Z6
	VADDPS        Z2, Z0, Z0
	VADDPS        Z6, Z4, Z4
	VADDPS        Z4, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0

z8loop8:
	CMPQ CX, $8
	JL   z8hsum
	VPMOVSXBD   (DI), Y8
	VCVTDQ2PS   Y8, Y8
	VFMADD231PS (SI), Y8, Y0
	ADDQ        $32, SI
	ADDQ        $8, DI
	SUBQ        $8, CX
	JMP         z8loop8

z8hsum:
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0

z8tail:
	CMPQ CX, $0
	JE   z8done
	MOVBLSX     (DI), AX
	VCVTSI2SSL  AX, X1, X1
	VFMADD231SS (SI), X1, X0
	ADDQ        $4, SI
	INCQ        DI
	DECQ        CX
	JMP         z8tail

z8done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET
