package password_test

import (
	"context"
	"testing"

	"github.com/venueplatform/venue/internal/identity/password"
)

// The benchmarks run with DefaultParams, so their ns/op is the cost of one
// login or signup on this machine.

func BenchmarkHash(b *testing.B) {
	h := newHasher(b, password.DefaultParams)
	ctx := context.Background()
	for b.Loop() {
		if _, err := h.Hash(ctx, "correct horse battery staple"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	h := newHasher(b, password.DefaultParams)
	ctx := context.Background()
	enc, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := h.Verify(ctx, "correct horse battery staple", enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyWrong(b *testing.B) {
	h := newHasher(b, password.DefaultParams)
	ctx := context.Background()
	enc, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = h.Verify(ctx, "wrong horse battery staple", enc)
	}
}

func BenchmarkDummyVerify(b *testing.B) {
	h := newHasher(b, password.DefaultParams)
	ctx := context.Background()
	for b.Loop() {
		_ = h.DummyVerify(ctx, "correct horse battery staple")
	}
}

// BenchmarkVerifyParallel shows the throughput of concurrent logins on all
// cores, the figure that matters under a credential-stuffing burst.
func BenchmarkVerifyParallel(b *testing.B) {
	h := newHasher(b, password.DefaultParams)
	ctx := context.Background()
	enc, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = h.Verify(ctx, "correct horse battery staple", enc)
		}
	})
}
