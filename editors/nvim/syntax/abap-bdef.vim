" Vim syntax file of abap-adt: RAP behavior definitions (abap-bdef, adt:// buffers of editors/nvim)
if exists("b:current_syntax")
  finish
endif

syn case ignore
syn match adtBdefComment "//.*$" contains=@Spell
syn region adtBdefComment start="/\*" end="\*/" contains=@Spell
syn region adtBdefString start="'" skip="''" end="'"
syn match adtBdefAnnotation "@<\?\h\w*\(\.\h\w*\)*"
syn match adtBdefEnum "#\h\w*"
syn match adtBdefType "\<abap\.\w\+"
syn match adtBdefNumber "\<\d\+\(\.\d\+\)\?\>"
syn keyword adtBdefKeyword managed unmanaged projection implementation in class unique strict define behavior
syn keyword adtBdefKeyword for alias persistent table draft lock master dependent etag authorization
syn keyword adtBdefKeyword instance global create update delete association field readonly mandatory numbering
syn keyword adtBdefKeyword action determination validation on save modify result parameter mapping use
syn keyword adtBdefKeyword with late early abstract interface side effects static factory internal
syn keyword adtBdefKeyword feature features determine precheck corresponding
syn match adtBdefAssociation "\<_\w\+"
hi def link adtBdefAssociation Identifier

hi def link adtBdefComment Comment
hi def link adtBdefString String
hi def link adtBdefAnnotation PreProc
hi def link adtBdefEnum Constant
hi def link adtBdefType Type
hi def link adtBdefNumber Number
hi def link adtBdefKeyword Keyword

let b:current_syntax = "abap-bdef"
