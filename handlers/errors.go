package handlers

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// Error is an API error: a status and the body of docs/api.md,
// {"error": {"code", "message", "fields"}}.
type Error struct {
	Status  int               `json:"-"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func newError(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func errInvalid(format string, args ...any) *Error {
	return newError(fiber.StatusBadRequest, "invalid_request", format, args...)
}

func errNotFound(what string) *Error {
	return newError(fiber.StatusNotFound, "not_found", "%s not found", what)
}

func errForbidden(format string, args ...any) *Error {
	return newError(fiber.StatusForbidden, "forbidden", format, args...)
}

func errUnauthenticated(format string, args ...any) *Error {
	return newError(fiber.StatusUnauthorized, "unauthenticated", format, args...)
}

func errConflict(format string, args ...any) *Error {
	return newError(fiber.StatusConflict, "conflict", format, args...)
}

// fieldErrors collects validation problems, one message per field.
type fieldErrors map[string]string

func (f fieldErrors) add(field, format string, args ...any) {
	if _, ok := f[field]; !ok {
		f[field] = fmt.Sprintf(format, args...)
	}
}

// err returns nil when nothing was added, else a 400 validation_failed.
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	msg := "check the highlighted fields"
	if len(f) == 1 {
		msg = names[0] + ": " + f[names[0]]
	}
	return &Error{Status: fiber.StatusBadRequest, Code: "validation_failed", Message: msg, Fields: f}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int32", "int64", "float32", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	default:
		return "an object"
	}
}

// toAPIError maps any error to the API error it answers with. Unknown
// errors become a 500 whose body says nothing about their cause.
func toAPIError(err error) *Error {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fromFiberError(fe)
	}
	switch {
	case errors.Is(err, repo.ErrNotFound):
		return errNotFound("resource")
	case errors.Is(err, repo.ErrConflict):
		return errConflict("the change conflicts with existing data")
	}
	return newError(fiber.StatusInternalServerError, "internal", "something went wrong on our side; the server log has details")
}

func fromFiberError(fe *fiber.Error) *Error {
	code := map[int]string{
		fiber.StatusBadRequest:            "invalid_request",
		fiber.StatusUnauthorized:          "unauthenticated",
		fiber.StatusForbidden:             "forbidden",
		fiber.StatusNotFound:              "not_found",
		fiber.StatusMethodNotAllowed:      "method_not_allowed",
		fiber.StatusRequestEntityTooLarge: "payload_too_large",
		fiber.StatusUnsupportedMediaType:  "unsupported_media_type",
		fiber.StatusTooManyRequests:       "rate_limited",
		fiber.StatusServiceUnavailable:    "unavailable",
		fiber.StatusRequestTimeout:        "timeout",
	}[fe.Code]
	msg := fe.Message
	switch {
	case fe.Code >= 500:
		code, msg = "internal", "something went wrong on our side; the server log has details"
	case fe.Code == fiber.StatusNotFound:
		msg = "no such route"
	case fe.Code == fiber.StatusMethodNotAllowed:
		msg = "this route does not accept that method"
	case fe.Code == fiber.StatusRequestEntityTooLarge:
		msg = "the request body is too large"
	}
	if code == "" {
		code = strings.ReplaceAll(strings.ToLower(http.StatusText(fe.Code)), " ", "_")
	}
	return &Error{Status: fe.Code, Code: code, Message: msg}
}

// ErrorHandler writes every error, ours and Fiber's own (404, 405, 413), as
// the one body of docs/api.md. It is the only place the cause of a 5xx is logged.
func ErrorHandler(logger *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		apiErr := toAPIError(err)
		if apiErr.Status >= 500 {
			logger.ErrorContext(c.UserContext(), "request failed", "method", c.Method(), "path", c.Path(),
				"status", apiErr.Status, "error", err)
		}
		return c.Status(apiErr.Status).JSON(fiber.Map{"error": apiErr})
	}
}
