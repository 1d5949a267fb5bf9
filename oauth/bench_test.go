package oauth

import (
	"testing"
	"time"
)

// BenchmarkVerify is what every authorized /mcp request pays for its token.
func BenchmarkVerify(b *testing.B) {
	as, err := New(Config{Issuer: "https://maison.example.com", Secret: testSecret})
	if err != nil {
		b.Fatal(err)
	}
	tok, _, err := as.Mint([]string{ScopeRead, ScopeControl}, time.Hour, "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := as.Verify(tok); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyForged is the cost of refusing a forged token.
func BenchmarkVerifyForged(b *testing.B) {
	as, _ := New(Config{Issuer: "https://maison.example.com", Secret: testSecret})
	tok, _, _ := as.Mint([]string{ScopeRead}, time.Hour, "bench")
	forged := tok[:len(tok)-4] + "AAAA"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := as.Verify(forged); err == nil {
			b.Fatal("forged token accepted")
		}
	}
}
