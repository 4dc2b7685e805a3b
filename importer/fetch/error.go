package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
)

// Stable error codes. They end up in the job's error body, so clients may
// switch on them; never rename one.
const (
	CodeInvalidURL       = "invalid_url"
	CodeForbiddenAddress = "forbidden_address"
	CodeBlocked          = "blocked"
	CodeHTTPStatus       = "http_status"
	CodeTimeout          = "timeout"
	CodeTooLarge         = "too_large"
	CodeTooManyRedirects = "too_many_redirects"
	CodeNotHTML          = "not_html"
	CodeUnreachable      = "unreachable"
	CodeBadResponse      = "bad_response"
)

// Error is a failure a person can act on: Code is stable and machine
// readable, Message is a sentence to show the user, Err is the cause for logs.
type Error struct {
	Code    string
	Message string
	// Status is the HTTP status for CodeBlocked and CodeHTTPStatus, else 0.
	Status int
	Err    error

	// addr and class describe a forbidden_address refusal.
	addr  netip.Addr
	class string
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error in err's chain, or nil.
func AsError(err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	return nil
}

func newError(code, msg string, cause error) *Error {
	return &Error{Code: code, Message: msg, Err: cause}
}

func invalidURL(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidURL, Message: fmt.Sprintf(format, args...)}
}

// statusError classifies a non-2xx answer. 403, 429 and 503 are what bot
// protection answers with, so they get their own code: the importer retries
// those in a real browser.
func statusError(status int) *Error {
	switch status {
	case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return &Error{Code: CodeBlocked, Status: status,
			Message: fmt.Sprintf("the site refused us (%d)", status)}
	}
	text := http.StatusText(status)
	if text == "" {
		text = "an error"
	}
	return &Error{Code: CodeHTTPStatus, Status: status,
		Message: fmt.Sprintf("the site answered %d (%s)", status, text)}
}
