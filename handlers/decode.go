package handlers

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// decodeJSON reads the request body, a JSON object, into v (a pointer to a
// struct) strictly: a field the struct does not have is an error naming it
// (a misspelled or misplaced field would otherwise be dropped without a
// word), and so is a value of the wrong type; every such problem is
// reported at once, each under its path ("ingredientSections[1].name").
func decodeJSON(c *fiber.Ctx, v any) error {
	fe := fieldErrors{}
	if err := decodeJSONInto(c, v, fe); err != nil {
		return err
	}
	return fe.err()
}

// decodeJSONInto is decodeJSON for handlers that validate further and
// report everything together: the shape problems go into fe, the fields
// without problems are decoded into v, and the error is only for a body
// that is not one JSON object.
func decodeJSONInto(c *fiber.Ctx, v any, fe fieldErrors) error {
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return errInvalid("the request body is empty; a JSON object is expected")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) || bytes.HasPrefix(bytes.TrimSpace(body), []byte("null")) {
			return errInvalid("the request body must be a JSON object")
		}
		return errInvalid("the request body is not valid JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return errInvalid("the request body holds more than one JSON value")
	}
	if obj == nil {
		return errInvalid("the request body must be a JSON object")
	}
	t := reflect.TypeOf(v).Elem()
	if t.Kind() != reflect.Struct {
		// A map (a PATCH that must tell a missing field from a null one):
		// its keys are the handler's to check.
		checkShape(fe, "", body, t)
		if len(fe) > 0 {
			return nil
		}
		if err := json.Unmarshal(body, v); err != nil {
			return errInvalid("the request body could not be read: %v", strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil
	}
	fields := jsonFields(t)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	clean := map[string]json.RawMessage{}
	for _, k := range keys {
		f, ok := fields[k]
		if !ok {
			fe.add(k, "is not a field of this request")
			continue
		}
		before := len(fe)
		checkShape(fe, k, obj[k], f)
		if len(fe) == before {
			clean[k] = obj[k]
		}
	}
	raw, _ := json.Marshal(clean)
	if err := json.Unmarshal(raw, v); err != nil {
		// checkShape let through what encoding/json refuses: name the body.
		return errInvalid("the request body could not be read: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkShape adds to fe every unknown field and every value of the wrong
// type in raw, read as a t, under path. null is always accepted: it leaves
// the field unset, as encoding/json does.
func checkShape(fe fieldErrors, path string, raw json.RawMessage, t reflect.Type) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if pt := reflect.PointerTo(t); pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) || t.Kind() == reflect.Interface {
		// Its own reading (a time, an id): its error says what is wrong.
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			fe.add(path, "is not valid: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			fe.add(path, "must be an object")
			return
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, ok := fields[k]
			if !ok {
				fe.add(joinPath(path, k), "is not a field here")
				continue
			}
			checkShape(fe, joinPath(path, k), obj[k], f)
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 { // []byte is a base64 string
			if json.Unmarshal(raw, reflect.New(t).Interface()) != nil {
				fe.add(path, "must be a base64 string")
			}
			return
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			fe.add(path, "must be an array")
			return
		}
		for i, it := range items {
			checkShape(fe, fmt.Sprintf("%s[%d]", path, i), it, t.Elem())
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			fe.add(path, "must be an object")
			return
		}
		for k, it := range obj {
			checkShape(fe, joinPath(path, k), it, t.Elem())
		}
	default:
		if json.Unmarshal(raw, reflect.New(t).Interface()) != nil {
			fe.add(path, "must be %s", jsonKind(t.Kind().String()))
		}
	}
}

// jsonFields maps the JSON names of a struct's fields (embedded structs'
// included, as encoding/json flattens them) to their types. Names match
// exactly: encoding/json would also take "Title" for "title", which a
// strict reading should not.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// joinPath is the path of field k under path ("" is the body itself).
func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
