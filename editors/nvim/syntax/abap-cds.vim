" Vim syntax file of abap-adt: CDS data definitions, metadata extensions and access controls (abap-cds, adt:// buffers of editors/nvim)
if exists("b:current_syntax")
  finish
endif

syn case ignore
syn match adtCdsComment "//.*$" contains=@Spell
syn region adtCdsComment start="/\*" end="\*/" contains=@Spell
syn region adtCdsString start="'" skip="''" end="'"
syn match adtCdsAnnotation "@<\?\h\w*\(\.\h\w*\)*"
syn match adtCdsEnum "#\h\w*"
syn match adtCdsType "\<abap\.\w\+"
syn match adtCdsNumber "\<\d\+\(\.\d\+\)\?\>"
syn keyword adtCdsKeyword define view entity root as select from projection on association
syn keyword adtCdsKeyword composition to parent of key where group by having union
syn keyword adtCdsKeyword all except case when then else end cast with parameters
syn keyword adtCdsKeyword extend provider contract redirected virtual distinct inner left right outer
syn keyword adtCdsKeyword cross join exact one many annotate abstract custom table function
syn keyword adtCdsKeyword returns implemented method grant aspect role inherit and or not
syn keyword adtCdsKeyword is null like between in order asc desc layer
syn match adtCdsAssociation "\<_\w\+"
syn match adtCdsVariable "\$\(projection\|parameters\|session\)\>"
hi def link adtCdsAssociation Identifier
hi def link adtCdsVariable Special

hi def link adtCdsComment Comment
hi def link adtCdsString String
hi def link adtCdsAnnotation PreProc
hi def link adtCdsEnum Constant
hi def link adtCdsType Type
hi def link adtCdsNumber Number
hi def link adtCdsKeyword Keyword

let b:current_syntax = "abap-cds"
