package mailer

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
	"time"
)

// The account emails: one content, rendered twice, as styled HTML (inline
// styles, because mail clients drop style sheets) and as plain text for
// clients that show no HTML.

type content struct {
	Name     string // the greeting's name; "" greets without one
	Intro    string
	Action   string // the button's label
	Link     string
	Validity string // "24 hours"
	Outro    string
}

// VerificationEmail is the message that confirms a new account's address.
func VerificationEmail(to, name, link string, validFor time.Duration) Message {
	return render(to, "Confirm your email address for Larder", content{
		Name:     name,
		Intro:    "Welcome to Larder. Please confirm that this is your email address, so you can sign in.",
		Action:   "Confirm my email address",
		Link:     link,
		Validity: humanDuration(validFor),
		Outro:    "If you did not create a Larder account, ignore this email; nothing will happen.",
	})
}

// PasswordResetEmail is the message with a link to choose a new password.
func PasswordResetEmail(to, name, link string, validFor time.Duration) Message {
	return render(to, "Reset your Larder password", content{
		Name:     name,
		Intro:    "Someone, hopefully you, asked to reset the password of your Larder account.",
		Action:   "Choose a new password",
		Link:     link,
		Validity: humanDuration(validFor),
		Outro:    "If you did not ask for this, ignore this email: your password stays as it is. Choosing a new password signs you out everywhere.",
	})
}

func humanDuration(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0 && d >= 48*time.Hour:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d%time.Hour == 0 && d > time.Hour:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d == time.Hour:
		return "1 hour"
	default:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
}

var textTemplate = texttemplate.Must(texttemplate.New("text").Parse(
	`Hello{{if .Name}} {{.Name}}{{end}},

{{.Intro}}

{{.Action}}:
{{.Link}}

The link works once and expires in {{.Validity}}.

{{.Outro}}

-- 
Larder
`))

var htmlTemplate = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Subject}}</title>
</head>
<body style="margin:0;padding:0;background:#f4f1ec;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f4f1ec;padding:32px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:12px;border:1px solid #e4ddd2;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#2b2622;">
<tr><td style="padding:24px 32px;border-bottom:1px solid #efe9e0;font-size:20px;font-weight:700;color:#8a4b2a;">Larder</td></tr>
<tr><td style="padding:28px 32px 8px 32px;font-size:16px;line-height:1.5;">
<p style="margin:0 0 16px 0;">Hello{{if .Name}} {{.Name}}{{end}},</p>
<p style="margin:0 0 24px 0;">{{.Intro}}</p>
<p style="margin:0 0 24px 0;" align="center"><a href="{{.Link}}" style="display:inline-block;background:#8a4b2a;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:8px;">{{.Action}}</a></p>
<p style="margin:0 0 8px 0;font-size:14px;color:#6b625a;">If the button does not work, copy this address into your browser:</p>
<p style="margin:0 0 24px 0;font-size:14px;word-break:break-all;"><a href="{{.Link}}" style="color:#8a4b2a;">{{.Link}}</a></p>
<p style="margin:0 0 16px 0;font-size:14px;color:#6b625a;">The link works once and expires in {{.Validity}}.</p>
<p style="margin:0 0 24px 0;font-size:14px;color:#6b625a;">{{.Outro}}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`))

func render(to, subject string, c content) Message {
	var text, html bytes.Buffer
	// The templates are fixed and their data is plain strings: executing
	// them cannot fail, short of a bug caught by the package's tests.
	if err := textTemplate.Execute(&text, c); err != nil {
		panic(err)
	}
	data := struct {
		content
		Subject string
	}{c, subject}
	if err := htmlTemplate.Execute(&html, data); err != nil {
		panic(err)
	}
	return Message{To: to, Subject: subject, Text: text.String(), HTML: html.String()}
}
