package oauth

import (
	"net/http"

	"maison/internal/webpage"
)

// OperatorProof is what the operator's proof on one of maison's pages came
// to (webpage.Proof): the same password, or Cloudflare Access, as the
// sign-in page, counted against the same lockouts.
type OperatorProof = webpage.Proof

// AsksPassword reports whether maison's pages ask for the operator password.
func (s *Server) AsksPassword() bool { return s.cfg.Password != "" }

// AccessEmail is the email Cloudflare Access vouches for on r, or "" with
// no error when Access is not used.
func (s *Server) AccessEmail(r *http.Request) (string, error) {
	if s.access == nil {
		return "", nil
	}
	return s.access.verify(r.Context(), r.Header.Get("Cf-Access-Jwt-Assertion"))
}

// ProveOperator checks the operator's proof a page's post r carries, with
// password as typed: the attempt is counted against r's address (as the
// sign-in page counts it, in the same memory), Cloudflare Access is
// checked when it is on, then the password when one is set. The right
// password takes its attempt back.
func (s *Server) ProveOperator(r *http.Request, password string) OperatorProof {
	addr := s.cfg.ClientAddr(r)
	wait, paused, err := s.logins.attempt(addr)
	if err != nil {
		s.log.Warn("operator proof refused: the store of sign-in attempts cannot count it", "remote", addr, "err", err)
		return OperatorProof{Unchecked: err}
	}
	if wait > 0 {
		return OperatorProof{Wait: wait, Paused: paused}
	}
	by := "operator"
	if s.access != nil {
		email, err := s.AccessEmail(r)
		if err != nil {
			return OperatorProof{AccessRefused: true}
		}
		by = email
	}
	if s.cfg.Password != "" && !passwordMatches(password, s.cfg.Password) {
		// The last wrong password says at once how long the address waits.
		return OperatorProof{WrongPassword: true, Left: s.logins.left(addr), Wait: s.logins.waits(addr)}
	}
	s.logins.succeeded(addr)
	return OperatorProof{By: by}
}
