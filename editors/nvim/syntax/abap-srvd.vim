" Vim syntax file of abap-adt: service definitions (abap-srvd, adt:// buffers of editors/nvim)
if exists("b:current_syntax")
  finish
endif

syn case ignore
syn match adtSrvdComment "//.*$" contains=@Spell
syn region adtSrvdComment start="/\*" end="\*/" contains=@Spell
syn region adtSrvdString start="'" skip="''" end="'"
syn match adtSrvdAnnotation "@<\?\h\w*\(\.\h\w*\)*"
syn match adtSrvdEnum "#\h\w*"
syn match adtSrvdType "\<abap\.\w\+"
syn match adtSrvdNumber "\<\d\+\(\.\d\+\)\?\>"
syn keyword adtSrvdKeyword define service expose as extend provider contracts with

hi def link adtSrvdComment Comment
hi def link adtSrvdString String
hi def link adtSrvdAnnotation PreProc
hi def link adtSrvdEnum Constant
hi def link adtSrvdType Type
hi def link adtSrvdNumber Number
hi def link adtSrvdKeyword Keyword

let b:current_syntax = "abap-srvd"
