package ai

import "github.com/piconform/piconform/reference/wtf8"

// SanitizeSurrogates removes unpaired UTF-16 surrogates from text: a high
// surrogate without a low one after it, and a low one without a high one
// before it. Nothing else changes. Pi applies it only inside provider
// adapters, never in the message layers.
func SanitizeSurrogates(text string) string { return wtf8.RemoveLoneSurrogates(text) }
