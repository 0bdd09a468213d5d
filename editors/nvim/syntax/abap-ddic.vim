" Vim syntax file of abap-adt: dictionary sources (define table / define structure) (abap-ddic, adt:// buffers of editors/nvim)
if exists("b:current_syntax")
  finish
endif

syn case ignore
syn match adtDdicComment "//.*$" contains=@Spell
syn region adtDdicComment start="/\*" end="\*/" contains=@Spell
syn region adtDdicString start="'" skip="''" end="'"
syn match adtDdicAnnotation "@<\?\h\w*\(\.\h\w*\)*"
syn match adtDdicEnum "#\h\w*"
syn match adtDdicType "\<abap\.\w\+"
syn match adtDdicNumber "\<\d\+\(\.\d\+\)\?\>"
syn keyword adtDdicKeyword define table structure key not null include with suffix type
syn keyword adtDdicKeyword extend foreign check value

hi def link adtDdicComment Comment
hi def link adtDdicString String
hi def link adtDdicAnnotation PreProc
hi def link adtDdicEnum Constant
hi def link adtDdicType Type
hi def link adtDdicNumber Number
hi def link adtDdicKeyword Keyword

let b:current_syntax = "abap-ddic"
