"""Model-convention topics of treaty articles, in en, pt, sv and zh.

`TOPICS` lists the topic keys in OECD/UN model order with display names; `MODEL_NUMBER` gives
the usual article number of each topic in the models. `classify` names the topic of one
article from its printed title (strong evidence) or its text (keyword weights); `score_all`
and `raw_scores` give the evidence for every topic, which `segment` uses to place article
boundaries that the print lost.

The tables below are data. Each keyword entry is ``(regex, weight)``, matched case-insensitively
on the text; weight 3 = a phrase (almost) only that article uses, 2 = typical of it, 1 = also
common elsewhere. A pattern counts at most `_MAX_HITS` times per text. Title patterns are
matched against printed article titles only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import Any

import ahocorasick_rs

# key -> display names (OECD/UN model order; technical-services is the UN model's 12A).
TOPICS: dict[str, dict[str, str]] = {
    "persons-covered": {"en": "Persons covered", "pt": "Pessoas visadas", "sv": "Personer som omfattas av avtalet", "zh": "人的范围"},
    "taxes-covered": {"en": "Taxes covered", "pt": "Impostos visados", "sv": "Skatter som omfattas av avtalet", "zh": "税种范围"},
    "general-definitions": {"en": "General definitions", "pt": "Definições gerais", "sv": "Allmänna definitioner", "zh": "一般定义"},
    "resident": {"en": "Resident", "pt": "Residente", "sv": "Hemvist", "zh": "居民"},
    "permanent-establishment": {"en": "Permanent establishment", "pt": "Estabelecimento permanente", "sv": "Fast driftställe", "zh": "常设机构"},
    "immovable-property": {"en": "Income from immovable property", "pt": "Rendimentos de bens imóveis", "sv": "Inkomst av fast egendom", "zh": "不动产所得"},
    "business-profits": {"en": "Business profits", "pt": "Lucros das empresas", "sv": "Inkomst av rörelse", "zh": "营业利润"},
    "shipping": {"en": "Shipping and air transport", "pt": "Transporte marítimo e aéreo", "sv": "Sjöfart och luftfart", "zh": "海运和空运"},
    "associated-enterprises": {"en": "Associated enterprises", "pt": "Empresas associadas", "sv": "Företag med intressegemenskap", "zh": "联属企业"},
    "dividends": {"en": "Dividends", "pt": "Dividendos", "sv": "Utdelning", "zh": "股息"},
    "interest": {"en": "Interest", "pt": "Juros", "sv": "Ränta", "zh": "利息"},
    "royalties": {"en": "Royalties", "pt": "Royalties", "sv": "Royalty", "zh": "特许权使用费"},
    "technical-services": {"en": "Fees for technical services", "pt": "Remunerações por serviços técnicos", "sv": "Ersättning för tekniska tjänster", "zh": "技术服务费"},
    "capital-gains": {"en": "Capital gains", "pt": "Ganhos de capital", "sv": "Realisationsvinst", "zh": "财产收益"},
    "independent-services": {"en": "Independent personal services", "pt": "Serviços profissionais independentes", "sv": "Självständig yrkesutövning", "zh": "独立个人劳务"},
    "employment": {"en": "Income from employment", "pt": "Rendimentos de emprego", "sv": "Inkomst av anställning", "zh": "非独立个人劳务"},
    "directors-fees": {"en": "Directors' fees", "pt": "Remunerações de direção", "sv": "Styrelsearvoden", "zh": "董事费"},
    "artistes-sportspersons": {"en": "Entertainers and sportspersons", "pt": "Artistas e desportistas", "sv": "Artister och idrottsmän", "zh": "艺术家和运动员"},
    "pensions": {"en": "Pensions", "pt": "Pensões", "sv": "Pensioner", "zh": "退休金"},
    "government-service": {"en": "Government service", "pt": "Funções públicas", "sv": "Offentlig tjänst", "zh": "政府服务"},
    "teachers": {"en": "Teachers and researchers", "pt": "Professores e pesquisadores", "sv": "Lärare och forskare", "zh": "教师和研究人员"},
    "students": {"en": "Students", "pt": "Estudantes", "sv": "Studerande", "zh": "学生"},
    "other-income": {"en": "Other income", "pt": "Outros rendimentos", "sv": "Annan inkomst", "zh": "其他所得"},
    "capital": {"en": "Capital", "pt": "Patrimônio", "sv": "Förmögenhet", "zh": "财产"},
    "elimination-double-taxation": {"en": "Elimination of double taxation", "pt": "Eliminação da dupla tributação", "sv": "Undanröjande av dubbelbeskattning", "zh": "消除双重征税方法"},
    "non-discrimination": {"en": "Non-discrimination", "pt": "Não discriminação", "sv": "Förbud mot diskriminering", "zh": "无差别待遇"},
    "mutual-agreement": {"en": "Mutual agreement procedure", "pt": "Procedimento amigável", "sv": "Förfarandet vid ömsesidig överenskommelse", "zh": "协商程序"},
    "exchange-of-information": {"en": "Exchange of information", "pt": "Troca de informações", "sv": "Utbyte av upplysningar", "zh": "情报交换"},
    "assistance-collection": {"en": "Assistance in the collection of taxes", "pt": "Assistência na cobrança de tributos", "sv": "Handräckning vid indrivning av skatter", "zh": "税收征收协助"},
    "diplomatic-agents": {"en": "Members of diplomatic missions and consular posts", "pt": "Membros de missões diplomáticas e postos consulares", "sv": "Medlemmar av diplomatisk beskickning och konsulat", "zh": "外交代表和领事官员"},
    "entitlement-to-benefits": {"en": "Entitlement to benefits", "pt": "Direito a benefícios", "sv": "Rätt till förmåner", "zh": "享受协定优惠的资格"},
    "entry-into-force": {"en": "Entry into force", "pt": "Entrada em vigor", "sv": "Ikraftträdande", "zh": "生效"},
    "termination": {"en": "Termination", "pt": "Denúncia", "sv": "Upphörande", "zh": "终止"},
}  # fmt: skip

#: Rank of each topic in model order (0-based), used to keep recovered articles in order.
RANK: dict[str, int] = {key: i for i, key in enumerate(TOPICS)}

#: The usual article number of each topic in the OECD (UN for technical services, 12A) model.
MODEL_NUMBER: dict[str, int] = {
    "persons-covered": 1, "taxes-covered": 2, "general-definitions": 3, "resident": 4,
    "permanent-establishment": 5, "immovable-property": 6, "business-profits": 7,
    "shipping": 8, "associated-enterprises": 9, "dividends": 10, "interest": 11,
    "royalties": 12, "technical-services": 12, "capital-gains": 13,
    "independent-services": 14, "employment": 15, "directors-fees": 16,
    "artistes-sportspersons": 17, "pensions": 18, "government-service": 19, "teachers": 20,
    "students": 20, "other-income": 21, "capital": 22, "elimination-double-taxation": 23,
    "non-discrimination": 24, "mutual-agreement": 25, "exchange-of-information": 26,
    "assistance-collection": 27, "diplomatic-agents": 28, "entitlement-to-benefits": 29,
    "entry-into-force": 30, "termination": 31,
}  # fmt: skip

# Patterns for printed article titles: topic -> patterns (any language; titles are short and
# the words rarely collide across languages). More specific topics come first where titles
# overlap ("Dependent personal services" before "Independent…", "非独立" before "独立").
TITLE_PATTERNS: dict[str, tuple[str, ...]] = {
    "persons-covered": (r"persons?\s+covered", r"personal\s+scope", r"pessoas\s+visadas", r"âmbito\s+subjetivo", r"personer\s+(som\s+)?omfatta", r"人的范围"),
    "taxes-covered": (r"taxes\s+covered", r"(tributos|impostos)\s+visados", r"skatter\s+som\s+omfatta", r"税种范围"),
    "general-definitions": (r"general\s+definitions?", r"definiç(ões|ão)\s+gera(is|l)", r"allmänna\s+definitioner", r"一般定义"),
    "resident": (r"^\s*residen(t|ce|te)\b", r"fiscal\s+domicile", r"^\s*hemvist", r"^\s*居民"),
    "permanent-establishment": (r"permanent\s+establi", r"estabelecimento\s+(permanente|estável)", r"fast\s+driftställe", r"常设机构"),
    "immovable-property": (r"immovable", r"real\s+property", r"bens\s+imóveis|imobiliári", r"fast\s+egendom", r"不动产"),
    "business-profits": (r"business\s+profits", r"lucros\s+das\s+empresas", r"inkomst\s+av\s+rörelse|rörelseinkomst", r"营业利润"),
    "shipping": (r"shipping", r"air\s+transport", r"transporte\s+marítimo|navegação", r"sjöfart|luftfart", r"海运|空运"),
    "associated-enterprises": (r"associated\s+enterprises?", r"empresas\s+associadas", r"intressegemenskap", r"联属企业|关联企业"),
    "dividends": (r"dividend", r"utdelning", r"股息"),
    "interest": (r"^\s*interest\b", r"^\s*juros", r"^\s*ränta", r"^\s*利息"),
    "royalties": (r"royalt", r"特许权使用费"),
    "technical-services": (r"technical\s+services", r"serviços\s+técnicos", r"tekniska\s+tjänster", r"技术服务"),
    "capital-gains": (r"capital\s+gains?|gains\s+from\s+the\s+alienation", r"ganhos\s+de\s+capital", r"realisationsvinst|kapitalvinst", r"财产收益|资本利得"),
    "employment": (r"\bdependent\s+personal", r"^(?!.*\bindependent).*employment", r"non-independent", r"rendimentos?\s+de\s+emprego|trabalho\s+dependente|serviços\s+dependentes", r"anställning", r"非独立个人劳务|受雇所得"),
    "independent-services": (r"independent\s+(personal\s+)?services?", r"serviços\s+(profissionais\s+)?independentes|profiss(ões|ão)\s+independente", r"självständig\s+yrkes|fritt\s+yrke", r"独立个人劳务"),
    "directors-fees": (r"directors", r"remunerações\s+de\s+direção|percentagens\s+de\s+membros|diretores", r"styrelse", r"董事"),
    "artistes-sportspersons": (r"artist|entertainer|athlete|sportsm|sportsperson", r"desportista|atleta|artistas", r"idrott|artister", r"艺术家|运动员|表演家"),
    "government-service": (r"government(al)?\s+service|public\s+service", r"funç(ões|ão)\s+(públicas?|governamenta)", r"offentlig\s+tjänst|allmän\s+tjänst", r"政府服务|政府职务"),
    "pensions": (r"pension|annuit", r"pensões|aposentadoria", r"pension|livränt", r"退休金|养老金"),
    "teachers": (r"teachers?|professors?|researchers?", r"professores|pesquisadores", r"lärare|forskare", r"教师|研究人员"),
    "students": (r"students?|apprentices?|trainees?", r"estudantes|aprendizes", r"studerande|studenter", r"学生|实习人员"),
    "other-income": (r"other\s+income|income\s+not\s+expressly", r"outros\s+rendimentos|rendimentos\s+não\s+expressamente", r"annan\s+inkomst|övriga\s+inkomster|inkomst\s+som\s+inte", r"其[它他]所得"),
    "elimination-double-taxation": (r"elimination\s+of\s+double|avoidance\s+of\s+double|relief\s+from\s+double|methods\s+for\s+the\s+elimination", r"eliminação\s+da\s+dupla|métodos\s+para\s+eliminar", r"undanröjande\s+av\s+dubbel|undvikande\s+av\s+dubbel|metoder\s+för", r"消除双重征税"),
    "non-discrimination": (r"non[-\s]?discrimination", r"não[-\s]discriminação", r"diskriminering", r"无差别待遇|非歧视"),
    "mutual-agreement": (r"mutual\s+agreement", r"procedimento\s+amigável|acordo\s+mútuo", r"ömsesidig\s+överenskommelse", r"协商程序|相互协商"),
    "exchange-of-information": (r"exchange\s+of\s+information", r"(troca|intercâmbio)\s+de\s+informações", r"utbyte\s+av\s+(upplysningar|information)", r"情报交换|信息交换"),
    "assistance-collection": (r"assistance\s+in\s+(the\s+)?collection|collection\s+of\s+taxes", r"assistência\s+na\s+cobrança", r"handräckning|indrivning", r"税收征收协助"),
    "diplomatic-agents": (r"diplomatic|consular", r"diplomátic|consulares", r"diplomatisk|konsul", r"外交|领事"),
    "entitlement-to-benefits": (r"entitlement\s+to\s+benefits|limitation\s+(on|of)\s+benefits|prevention\s+of\s+treaty\s+abuse", r"direito\s+a\s+benefícios|limitação\s+de\s+benefícios", r"rätt\s+till\s+förmåner|begränsning\s+av\s+förmåner", r"享受协定优惠|利益限制"),
    "capital": (r"^\s*capital\s*$", r"^\s*patrimônio\s*$|^\s*capital\s*$", r"^\s*förmögenhet\s*$", r"^\s*财产\s*$"),
    "entry-into-force": (r"entry\s+into\s+force|coming\s+into\s+force", r"entrada\s+em\s+vigor|vigência", r"ikraftträdande|träder\s+i\s+kraft", r"生效"),
    "termination": (r"terminat", r"denúncia|término|terminação", r"upphörande|uppsägning", r"终止"),
}  # fmt: skip

# Content keywords per topic and language: (regex, weight).
KEYWORDS: dict[str, dict[str, tuple[tuple[str, int], ...]]] = {
    "persons-covered": {
        "en": ((r"shall apply to persons", 3), (r"persons\s+who\s+are\s+residents\s+of\s+one\s+or\s+both", 3), (r"persons\s+resid\w*\s+in\s+one\s+or\s+both", 3), (r"fiscally\s+transparent", 1)),
        "pt": ((r"aplicar\w*\s+(às|as)\s+pessoas", 3), (r"residentes\s+de\s+um\s+ou\s+de\s+ambos", 3), (r"fiscalmente\s+transparente", 1)),
        "sv": ((r"tillämpas\s+på\s+personer", 3), (r"i\s+en\s+av\s+eller\s+båda", 2), (r"skattemässigt\s+transparent", 1)),
        "zh": ((r"适用于.{0,15}居民的人", 3), (r"同时为双方居民的人", 2)),
    },
    "taxes-covered": {
        "en": ((r"taxes\s+on\s+income", 1), (r"(existing|current)\s+taxes", 3), (r"identical\s+or\s+substantially\s+similar\s+taxes", 3), (r"taxes\s+to\s+which\s+th\w+\s+(convention|agreement)\s+shall\s+apply", 3), (r"income\s+tax\b", 1)),
        "pt": ((r"(tributos|impostos)\s+atuais", 3), (r"idênticos\s+ou\s+substancialmente", 3), (r"imposto\s+(federal\s+)?sobre\s+a\s+renda", 1), (r"tributos\s+sobre\s+a\s+renda", 1), (r"impostos?\s+aos\s+quais\s+se\s+aplica", 2)),
        "sv": ((r"skatter\s+som\s+avses", 3), (r"(nu\s+utgående|nuvarande)\s+skatter", 3), (r"i\s+huvudsak\s+likartad", 3), (r"inkomstskatt", 1)),
        "zh": ((r"现行税种", 3), (r"实质相似的税收", 3), (r"所得税", 1)),
    },
    "general-definitions": {
        "en": ((r"the\s+terms?\s+[\"“]", 1), (r"unless\s+the\s+context\s+otherwise\s+requires", 3), (r"competent\s+authority[\"”]?\s+means", 3), (r"international\s+traffic[\"”]?\s+means", 3), (r"[\"”]\s+means\b", 1)),
        "pt": ((r"o\s+termo\s+[\"“]", 1), (r"a\s+expressão\s+[\"“]", 1), (r"a\s+não\s+ser\s+que\s+o\s+contexto", 3), (r"autoridade\s+competente[\"”]?\s+significa", 3), (r"tráfego\s+internacional[\"”]?\s+significa", 3)),
        "sv": ((r"(där|om)\s+icke\s+sammanhanget", 3), (r"om\s+inte\s+sammanhanget", 3), (r"förstås\s+med", 1), (r"uttrycket\s+[»\"“]", 1), (r"behörig\s+myndighet", 1)),
        "zh": ((r"一语是指", 1), (r"除上下文另有解释", 3), (r"主管当局”一语", 3), (r"国际运输”一语", 3)),
    },
    "resident": {
        "en": ((r"permanent\s+home", 3), (r"vital\s+interests", 3), (r"habitual\s+abode", 3), (r"resident\s+of\s+both\s+contracting\s+states", 2), (r"place\s+of\s+(effective\s+)?management", 1), (r"by\s+reason\s+of\s+(his|her|its)\S*\s+domicile", 3)),
        "pt": ((r"habitação\s+permanente", 3), (r"interesses\s+vitais", 3), (r"viv\w+\s+habitualmente", 3), (r"residente\s+de\s+ambos", 2), (r"em\s+razão\s+de\s+seu\s+domicílio", 3)),
        "sv": ((r"stadigvarande\s+bostad", 3), (r"levnadsintressen", 3), (r"vanligen\s+vistas", 3), (r"hemvist\s+i\s+båda", 2), (r"på\s+grund\s+av\s+domicil", 3)),
        "zh": ((r"永久性住所", 3), (r"重要利益中心", 3), (r"习惯性居处", 3), (r"由于住所", 3)),
    },
    "permanent-establishment": {
        "en": ((r"fixed\s+place\s+of\s+business", 3), (r"building\s+site", 3), (r"preparatory\s+or\s+auxiliary", 3), (r"permanent\s+establishment[\"”]?\s+(means|includes)", 3), (r"independent\s+status", 2), (r"a\s+place\s+of\s+management", 2), (r"a\s+branch", 1)),
        "pt": ((r"instalação\s+fixa\s+de\s+negócios", 3), (r"canteiro\s+de\s+obras", 3), (r"preparatório\s+ou\s+auxiliar", 3), (r"estabelecimento\s+permanente[\"”]?\s+(significa|abrange)", 3), (r"agente\s+independente|estatuto\s+independente", 2), (r"uma\s+filial", 1)),
        "sv": ((r"stadigvarande\s+plats\s+för\s+affärsverksamhet", 3), (r"byggnads|anläggnings|monterings", 2), (r"förberedande\s+eller\s+biträdande", 3), (r"fast\s+driftställe[»\"”]?\s+(förstås|åsyftas|innefattar|anses)", 3), (r"oberoende\s+ställning", 2), (r"plats\s+för\s+företagsledning", 2), (r"filial", 1)),
        "zh": ((r"固定营业场所", 3), (r"建筑工地", 3), (r"准备性或辅助性", 3), (r"常设机构”一语", 3), (r"独立代理人", 2), (r"管理场所", 2)),
    },
    "immovable-property": {
        "en": ((r"immovable\s+property", 2), (r"real\s+property", 2), (r"agriculture\s+or\s+forestry", 3), (r"usufruct", 2), (r"mineral\s+deposits", 2)),
        "pt": ((r"bens\s+imóveis", 2), (r"propriedade\s+imobiliária", 2), (r"agrícolas\s+ou\s+florestais", 3), (r"usufruto", 2), (r"jazidas\s+minerais", 2)),
        "sv": ((r"fast\s+egendom", 2), (r"lantbruk\s+eller\s+skogsbruk", 3), (r"nyttjanderätt", 2), (r"mineralförekomster|naturtillgångar", 2)),
        "zh": ((r"不动产", 2), (r"农业和林业|农业或林业", 3), (r"用益权", 2)),
    },
    "business-profits": {
        "en": ((r"profits\s+of\s+an\s+enterprise", 3), (r"attribut\w+\s+to\s+(that|the)\s+permanent\s+establishment", 2), (r"deductions?\s+(of\s+)?expenses", 2), (r"mere\s+purchase", 3), (r"items\s+of\s+income\s+which\s+are\s+dealt\s+with\s+separately", 3)),
        "pt": ((r"lucros\s+de\s+uma\s+empresa", 3), (r"atribu\w+\s+(a\s+esse|ao)\s+estabelecimento\s+permanente", 2), (r"deduzir\s+as\s+despesas", 2), (r"simples\s+compra", 3), (r"tratados\s+separadamente", 3)),
        "sv": ((r"inkomst\s+av\s+rörelse", 3), (r"hänför\w*\s+till\s+det\s+fasta\s+driftstället", 2), (r"avdrag\s+för\s+kostnader", 2), (r"endast\s+inköper", 3)),
        "zh": ((r"企业的利润", 3), (r"归属于该常设机构", 2), (r"扣除.{0,10}费用", 2), (r"采购货物或商品", 3), (r"单独规定的所得项目", 3)),
    },
    "shipping": {
        "en": ((r"operation\s+of\s+ships", 3), (r"ships,?\s+(boats,?\s+)?(or\s+)?aircraft", 2), (r"international\s+traffic", 1), (r"\bpool\b", 2), (r"containers", 1)),
        "pt": ((r"operação\s+de\s+navios", 3), (r"navios\s+ou\s+aeronaves", 2), (r"tráfego\s+internacional", 1), (r"[\"“]pool[\"”]", 2), (r"contêineres", 1)),
        "sv": ((r"fartyg\s+eller\s+luftfartyg", 3), (r"sjöfart|luftfart", 2), (r"internationell\s+trafik", 1), (r"pool|konsortium", 2)),
        "zh": ((r"船舶或飞机", 3), (r"国际运输", 1), (r"合伙经营|联合经营|国际经营机构", 2)),
    },
    "associated-enterprises": {
        "en": ((r"management,\s+control\s+or\s+capital", 3), (r"conditions\s+are\s+made\s+or\s+imposed", 3), (r"associated\s+enterprises?", 2), (r"but\s+for\s+those\s+conditions", 3)),
        "pt": ((r"direção,\s+(no\s+)?controle\s+ou\s+(no\s+)?capital", 3), (r"condições\s+forem\s+estabelecidas\s+ou\s+impostas", 3), (r"empresas\s+associadas", 2), (r"não\s+fossem\s+essas\s+condições", 3)),
        "sv": ((r"ledning,\s+kontroll\s+eller\s+kapital", 3), (r"villkor\s+avtalas\s+eller\s+föreskrivs", 3), (r"intressegemenskap", 2), (r"ledningen\s+eller\s+övervakningen", 3)),
        "zh": ((r"管理、控制或资本", 3), (r"独立企业之间", 3), (r"联属企业", 2)),
    },
    "dividends": {
        "en": ((r"dividends?", 2), (r"jouissance|founders.\s+shares", 2)),
        "pt": ((r"dividendos?", 2), (r"partes\s+de\s+fundador", 2)),
        "sv": ((r"utdelning", 2), (r"aktier|andelar", 1)),
        "zh": ((r"股息", 2), (r"股份", 1)),
    },
    "interest": {
        "en": ((r"\binterest\b", 2), (r"debt-?claims", 2)),
        "pt": ((r"\bjuros\b", 2), (r"créditos\s+de\s+qualquer\s+natureza", 2)),
        "sv": ((r"\brän\w*", 2), (r"fordringar\s+av\s+varje\s+slag", 2)),
        "zh": ((r"利息", 2), (r"债权", 2)),
    },
    "royalties": {
        "en": ((r"royalt\w+", 2), (r"copyright", 2), (r"patent", 1), (r"trade\s*mark", 1)),
        "pt": ((r"royalt\w+", 2), (r"direitos?\s+de\s+autor", 2), (r"patentes?", 1), (r"marcas?\s+de\s+(indústria|comércio)", 1)),
        "sv": ((r"royalty\w*", 2), (r"upphovsrätt", 2), (r"patent", 1), (r"varumärke|mönster", 1)),
        "zh": ((r"特许权使用费", 2), (r"版权|专利|商标", 1)),
    },
    "technical-services": {
        "en": ((r"technical\s+services", 3), (r"managerial,\s+technical\s+or\s+consultancy", 3)),
        "pt": ((r"serviços\s+técnicos", 3), (r"natureza\s+gerencial,\s+técnica", 3)),
        "sv": ((r"tekniska\s+tjänster", 3),),
        "zh": ((r"技术服务费", 3), (r"管理、技术或咨询", 3)),
    },
    "capital-gains": {
        "en": ((r"\bgains\b", 2), (r"alienation", 2)),
        "pt": ((r"\bganhos\b", 2), (r"alienação", 2)),
        "sv": ((r"realisationsvinst|kapitalvinst", 3), (r"avyttring|överlåtelse", 2), (r"\bvinst\b", 1)),
        "zh": ((r"收益", 2), (r"转让", 2)),
    },
    "independent-services": {
        "en": ((r"professional\s+services", 3), (r"independent\s+character", 3), (r"fixed\s+base", 2), (r"independent\s+(personal\s+)?services", 2)),
        "pt": ((r"serviços\s+profissionais", 3), (r"caráter\s+independente", 3), (r"instalação\s+fixa(?!\s+de\s+negócios)", 1), (r"atividades\s+independentes", 2)),
        "sv": ((r"fritt\s+yrke", 3), (r"självständig\s+verksamhet|självständig\s+yrkes", 3), (r"stadigvarande\s+anordning", 2)),
        "zh": ((r"专业性劳务", 3), (r"独立性活动|独立个人劳务", 3), (r"固定基地", 2)),
    },
    "employment": {
        "en": ((r"salaries,\s+wages", 2), (r"employment", 1), (r"183\s+days", 3), (r"employer", 2)),
        "pt": ((r"salários,\s+ordenados", 2), (r"\bemprego\b", 1), (r"183\s+dias", 3), (r"empregador", 2)),
        "sv": ((r"\blön\w*", 1), (r"anställning|tjänst", 1), (r"183\s+dagar", 3), (r"arbetsgivare", 2)),
        "zh": ((r"工资、薪金", 2), (r"受雇", 1), (r"一百八十三天|183天", 3), (r"雇主", 2)),
    },
    "directors-fees": {
        "en": ((r"directors.?\s+fees", 3), (r"board\s+of\s+directors", 3)),
        "pt": ((r"remunerações\s+de\s+direção", 3), (r"membro\s+da\s+diretoria|conselho\s+de\s+administração", 3)),
        "sv": ((r"styrelsearvode", 3), (r"styrelse", 2)),
        "zh": ((r"董事费", 3), (r"董事会", 3)),
    },
    "artistes-sportspersons": {
        "en": ((r"entertainer", 3), (r"athlete|sportsm[ae]n|sportsperson", 3), (r"musician|theatre|motion\s+picture", 2), (r"\bartist", 1)),
        "pt": ((r"profissiona(l|is)\s+de\s+espetáculos", 3), (r"desportistas?|atletas?", 3), (r"músicos?|teatro|cinema", 2), (r"artistas?", 1)),
        "sv": ((r"artist\w*", 3), (r"idrottsm\w+|idrottsutövare", 3), (r"musiker|skådespelare", 2)),
        "zh": ((r"表演家|艺术家", 3), (r"运动员", 3), (r"戏剧|电影|音乐家", 2)),
    },
    "pensions": {
        "en": ((r"pensions?", 2), (r"annuit", 2), (r"social\s+security", 2), (r"past\s+employment", 2)),
        "pt": ((r"pensões|pensão", 2), (r"anuidades?", 2), (r"previdência|seguridade\s+social", 2), (r"emprego\s+anterior", 2)),
        "sv": ((r"pension\w*", 2), (r"livränt\w*", 2), (r"socialförsäkring", 2), (r"tidigare\s+anställning|tidigare\s+tjänst", 2)),
        "zh": ((r"退休金|养老金", 2), (r"社会保险", 2), (r"以前的雇佣", 2)),
    },
    "government-service": {
        "en": ((r"(political\s+)?subdivision\s+or\s+a\s+local\s+authority\s+thereof\s+to\s+an\s+individual", 3), (r"services\s+rendered\s+to\s+that\s+(state|contracting)", 3), (r"governmental\s+functions", 2), (r"paid\s+by\s+the\s+government", 3)),
        "pt": ((r"pagas?\s+por\s+um\s+Estado\s+Contratante,?\s+ou\s+por\s+uma\s+de\s+suas\s+subdivisões", 3), (r"serviços\s+prestados\s+a\s+esse\s+Estado", 3), (r"funções\s+(públicas|governamentais)", 2), (r"pag[oa]s?\s+pelo\s+gov[eê]rno", 3)),
        "sv": ((r"offentlig\s+tjänst|allmän\s+tjänst", 3), (r"tjänst\s+hos\s+(denna\s+)?stat", 3), (r"offentligrättslig", 2), (r"(?:betala[sd]|utbetala[sd])\s+av\s+(?:\w+\s+){0,3}(?:regering|staten)", 3), (r"statens\s+tjänst", 3)),
        "zh": ((r"政府、其行政区或地方当局", 3), (r"提供服务的个人", 3), (r"政府职能", 2)),
    },
    "teachers": {
        "en": ((r"teach\w*", 2), (r"professor", 2), (r"research", 2), (r"university|college|school", 1)),
        "pt": ((r"\bensino\b|lecionar", 2), (r"professor", 2), (r"pesquisas?", 2), (r"universidade|instituição\s+educacional|a\s+convite\s+do\s+governo", 1)),
        "sv": ((r"undervisning", 2), (r"lärare|professor", 2), (r"forskning", 2), (r"universitet|högskola|skola", 1)),
        "zh": ((r"教学|讲学", 2), (r"教师|教授", 2), (r"研究", 2), (r"大学|学院|学校", 1)),
    },
    "students": {
        "en": ((r"student", 3), (r"apprentice|trainee", 3), (r"maintenance,\s+education\s+or\s+training", 3), (r"scholarships?|grants", 1)),
        "pt": ((r"estudantes?", 3), (r"aprendiz|estagiário", 3), (r"manutenção,\s+educação\s+ou\s+treinamento", 3), (r"bolsas?\s+de\s+estudo", 1)),
        "sv": ((r"studerande|student", 3), (r"lärling|praktikant|affärspraktikant", 3), (r"uppehälle,\s+utbildning", 3), (r"stipendi\w+", 1)),
        "zh": ((r"学生", 3), (r"学徒|实习", 3), (r"生活、教育或培训", 3), (r"奖学金|赠款", 1)),
    },
    "other-income": {
        "en": ((r"items\s+of\s+income\s+.{0,80}not\s+dealt\s+with", 3), (r"not\s+expressly\s+(mentioned|dealt)", 3), (r"foregoing\s+articles", 2)),
        "pt": ((r"rendimentos\s+.{0,80}não\s+tratad\w+", 3), (r"não\s+expressamente\s+mencionad\w+", 3), (r"artigos\s+precedentes", 2), (r"modalidades\s+de\s+rendimentos", 2)),
        "sv": ((r"inkomst\w*\s+.{0,80}som\s+(icke|inte)\s+behandla", 3), (r"föregående\s+artiklar", 2)),
        "zh": ((r"未作规定的", 3), (r"上述各条", 2), (r"各项所得", 2)),
    },
    "capital": {
        "en": ((r"capital\s+represented\s+by", 3), (r"taxes\s+on\s+capital\s+are\s+imposed", 3), (r"elements\s+of\s+capital", 3)),
        "pt": ((r"patrimônio\s+constituído|capital\s+constituído", 3), (r"elementos\s+do\s+patrimônio", 3)),
        "sv": ((r"förmögenhet\s+som\s+utgöres|förmögenhet\s+i\s+form", 3), (r"skatt\s+på\s+förmögenhet", 3), (r"förmögenhetsbeskattning|beskattas\s+för\s+förmögenhet", 2)),
        "zh": ((r"财产.{0,6}征税", 2),),
    },
    "elimination-double-taxation": {
        "en": ((r"double\s+taxation\s+shall\s+be\s+(avoided|eliminated|prevented)", 3), (r"shall\s+allow\s+as\s+a\s+deduction", 3), (r"\bcredit\b", 1), (r"deduction\s+from\s+the\s+tax", 3), (r"exempt\s+from\s+tax", 1), (r"tax\s+sparing|tax\s+paid\s+in", 2)),
        "pt": ((r"dupla\s+tributação\s+será\s+(evitada|eliminada)", 3), (r"permitirá\s+que\s+seja\s+deduzido|admitirá\s+a\s+dedução", 3), (r"\bdedução\b|deduzir", 1), (r"crédito", 1), (r"isent\w+\s+de\s+imposto", 2)),
        "sv": ((r"undvikas\s+på\s+följande\s+sätt|undanröj\w+\s+dubbelbeskattning", 3), (r"avräkn\w+|avräkna", 3), (r"nedsättning|befria\w*", 1), (r"tillåta\s+avdrag", 3)),
        "zh": ((r"消除双重征税", 3), (r"抵免", 3), (r"扣除", 1), (r"饶让", 3)),
    },
    "non-discrimination": {
        "en": ((r"other\s+or\s+more\s+burdensome", 3), (r"less\s+favourably|less\s+favorably", 3), (r"personal\s+allowances", 2), (r"nationals\s+of\s+a\s+contracting\s+state\s+shall\s+not\s+be\s+subject", 3)),
        "pt": ((r"mais\s+onerosa", 3), (r"menos\s+favorável", 3), (r"deduções\s+pessoais|abatimentos", 2)),
        "sv": ((r"mera\s+tyngande|mer\s+betungande", 3), (r"mindre\s+fördelaktig", 3), (r"personliga\s+avdrag", 2)),
        "zh": ((r"更重|不应高于", 3), (r"个人扣除", 2), (r"无差别", 3)),
    },
    "mutual-agreement": {
        "en": ((r"present\s+(his|her|its)\S*\s+case", 3), (r"mutual\s+agreement", 2), (r"shall\s+endeavour", 2), (r"communicate\s+with\s+each\s+other\s+directly|communicate\s+directly", 2)),
        "pt": ((r"submeter\s+o\s+seu\s+caso|apresentar\s+o\s+seu\s+caso", 3), (r"acordo\s+mútuo|procedimento\s+amigável", 2), (r"envidar\w*\s+esforços", 2), (r"comunicar-se\s+diretamente", 2)),
        "sv": ((r"ömsesidig\s+överenskommelse", 2), (r"framlägga\s+saken|hänskjuta", 3), (r"söka\s+lösa", 2), (r"träda\s+i\s+direkt\s+förbindelse", 2)),
        "zh": ((r"协商", 2), (r"提出申诉|申诉", 3), (r"设法", 2), (r"相互直接联系", 2)),
    },
    "exchange-of-information": {
        "en": ((r"exchange\s+(such\s+)?information", 3), (r"information\s+received", 2), (r"\bsecret", 2), (r"\binformation\b", 1)),
        "pt": ((r"(trocarão|intercambiarão)\s+(entre\s+si\s+)?(as\s+)?informações", 3), (r"informações\s+recebidas", 2), (r"sigilo\w*|secret", 2), (r"informaç\w+", 1)),
        "sv": ((r"utbyta\s+(sådana\s+)?upplysningar", 3), (r"upplysningar", 2), (r"hemlig\w*", 2)),
        "zh": ((r"交换.{0,20}情报|情报交换", 3), (r"情报", 2), (r"保密|秘密", 2)),
    },
    "assistance-collection": {
        "en": ((r"collection\s+of\s+revenue\s+claims", 3), (r"revenue\s+claim", 3), (r"assistance\s+in\s+the\s+collection", 3)),
        "pt": ((r"cobrança\s+de\s+créditos\s+tributários", 3), (r"assistência\s+na\s+cobrança", 3)),
        "sv": ((r"handräckning", 3), (r"indrivning", 3)),
        "zh": ((r"征收协助|税收债权", 3),),
    },
    "diplomatic-agents": {
        "en": ((r"diplomatic\s+missions?", 3), (r"consular", 3), (r"fiscal\s+privileges", 3)),
        "pt": ((r"missões\s+diplomáticas", 3), (r"consulares", 3), (r"privilégios\s+fiscais", 3)),
        "sv": ((r"diplomatisk\w*", 3), (r"konsul\w*", 3), (r"privilegier", 3)),
        "zh": ((r"外交代表", 3), (r"领事", 3), (r"税收特权", 3)),
    },
    "entitlement-to-benefits": {
        "en": ((r"qualified\s+person", 3), (r"entitled\s+to\s+(a\s+|the\s+|any\s+)?benefits?", 2), (r"(principal|main)\s+purposes?", 2), (r"recognized\s+stock\s+exchange", 2), (r"equivalent\s+beneficiar", 3), (r"offshore", 2)),
        "pt": ((r"pessoa\s+qualificada", 3), (r"direito\s+a\s+(um\s+)?benefício", 2), (r"principa(l|is)\s+propósitos?", 2), (r"bolsa\s+de\s+valores\s+reconhecida", 2), (r"beneficiário\s+equivalente", 3)),
        "sv": ((r"kvalificerad\s+person", 3), (r"rätt\s+till\s+förmån", 2), (r"huvudsakliga\s+syfte", 2), (r"erkänd\s+börs", 2)),
        "zh": ((r"合格的人|合格人员", 3), (r"享受.{0,10}优惠", 2), (r"主要目的", 2), (r"证券交易所", 2)),
    },
    "entry-into-force": {
        "en": ((r"enter\s+into\s+force|entry\s+into\s+force", 3), (r"ratif\w+", 2), (r"instruments\s+of\s+ratification", 3), (r"shall\s+have\s+effect", 2), (r"completion\s+of\s+the\s+procedures", 3)),
        "pt": ((r"entrar\w*\s+em\s+vigor|entrada\s+em\s+vigor", 3), (r"ratifica\w+", 2), (r"instrumentos\s+de\s+ratificação", 3), (r"procedimentos\s+exigidos", 3)),
        "sv": ((r"träd\w*\s+i\s+kraft|ikraftträdande", 3), (r"ratifi\w+", 2), (r"ratifikationshandling\w*", 3), (r"tillämpas\s+i\s+fråga\s+om", 1)),
        "zh": ((r"生效", 3), (r"批准", 2), (r"国内法律程序", 3)),
    },
    "termination": {
        "en": ((r"terminat\w+", 3), (r"notice\s+of\s+termination", 3), (r"remain\s+in\s+force", 2), (r"cease\s+to\s+(have\s+effect|apply)", 3)),
        "pt": ((r"denúncia|denunciar", 3), (r"permanecerá\s+em\s+vigor", 2), (r"deixará\s+de\s+(ser\s+)?(aplicável|efetivo|vigorar)", 3)),
        "sv": ((r"uppsäg\w+|säga\s+upp", 3), (r"förblir\s+i\s+kraft|skall\s+förbliva\s+i\s+kraft", 2), (r"upphör\w*\s+att\s+gälla", 3)),
        "zh": ((r"终止", 3), (r"长期有效", 2)),
    },
}  # fmt: skip

_MAX_HITS = 4
_LANG_FALLBACK = "en"

# Running ~130 case-insensitive regexes over every text is what scoring costs. Two exact
# shortcuts, for texts whose characters lower-case one for one as the regex engine folds them
# (`_Folder.lower`; others, e.g. with "İ" or "ſ", take the plain path):
# - each pattern carries literals one of which any match contains ("dividend"), and is run
#   only when the lower-cased text contains one;
# - it runs as a lower-cased, case-sensitive copy on the lower-cased text (no per-character
#   folding, literal-prefix search), where its parse tree is the original's, folded.

_Literals = tuple[str, ...]


def _required(seq: Any) -> list[_Literals]:
    """Clauses that every match of the parsed sequence `seq` satisfies: each clause is a tuple
    of literals one of which occurs in the match (empty list: nothing known)."""
    from re import _constants as c

    clauses: list[_Literals] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            clauses.append(("".join(run),))
            run.clear()

    for op, av in seq:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        flush()
        if op is c.SUBPATTERN:
            clauses.extend(_required(av[3]))
        elif op is c.BRANCH:
            options: list[str] = []
            for branch in av[1]:
                best = _best(_required(branch))
                if best is None:
                    options = []
                    break
                options.extend(best)
            if options:
                clauses.append(tuple(options))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            clauses.extend(_required(av[2]))
    flush()
    return clauses


def _best(clauses: list[_Literals]) -> _Literals | None:
    """The most selective clause (longest shortest literal), or None."""
    if not clauses:
        return None
    return max(clauses, key=lambda cl: min(len(x) for x in cl))


def _starts(seq: Any) -> _Literals | None:
    """Literals one of which every match of the parsed sequence `seq` begins with, or None:
    after zero-width ``\b``-like assertions, a run of literals, or alternatives (or a group
    of them) that each begin so."""
    from re import _constants as c

    k = 0
    while k < len(seq) and seq[k][0] is c.AT:
        k += 1
    if k == len(seq):
        return None
    op, av = seq[k]
    if op is c.LITERAL:
        run = []
        for op2, av2 in seq[k:]:
            if op2 is not c.LITERAL:
                break
            run.append(chr(av2))
        return ("".join(run),)
    if op is c.SUBPATTERN and not av[1] and not av[2]:  # a group without flags of its own
        return _starts(av[3])
    if op is c.BRANCH:
        out: list[str] = []
        for branch in av[1]:
            begins = _starts(branch)
            if begins is None:
                return None
            out.extend(x for x in begins if x not in out)
        return tuple(out)
    return None


def _fold(ch: str) -> str:
    """`ch` as the regex engine lower-cases it (simple case mapping)."""
    import _sre

    return chr(_sre.unicode_tolower(ord(ch)))


def _lower_source(pattern: str) -> str:
    """`pattern` lower-cased outside escapes (``\\S`` stays ``\\S``)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            out.append(pattern[i : i + 2])
            i += 2
        else:
            out.append(pattern[i].lower())
            i += 1
    return "".join(out)


def _same_folded(a: Any, b: Any, chars: set[str]) -> bool:
    """Is parse tree `b` tree `a` with its literals folded? Collects `a`'s literals in
    `chars`. Anything but the plain operators used by the tables counts as different."""
    from re import _constants as c

    if len(a) != len(b):
        return False
    for (op, av), (op2, av2) in zip(a, b):
        if op is not op2:
            return False
        if op in (c.LITERAL, c.NOT_LITERAL):
            chars.add(chr(av))
            ok = av2 == ord(_fold(chr(av)))
        elif op in (c.IN, c.BRANCH):
            ok = (_same_folded(av, av2, chars) if op is c.IN else len(av[1]) == len(av2[1])
                  and all(_same_folded(x, y, chars) for x, y in zip(av[1], av2[1])))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            ok = av[:2] == av2[:2] and _same_folded(av[2], av2[2], chars)
        elif op is c.SUBPATTERN:
            ok = av[:3] == av2[:3] and _same_folded(av[3], av2[3], chars)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            ok = av[0] == av2[0] and _same_folded(av[1], av2[1], chars)
        else:
            ok = op in (c.ANY, c.AT, c.CATEGORY, c.NEGATE) and av == av2
        if not ok:
            return False
    return True


class _Folder:
    """Decides per text whether the lower-cased shortcuts are exact for it."""

    _CATEGORIES = (re.compile(r"\w"), re.compile(r"\s"), re.compile(r"\d"))

    def __init__(self, chars: set[str]) -> None:
        from re import _casefix

        # characters the engine also matches to a pattern's letters ("ſ" for "s")
        self._extra = frozenset(chr(x) for ch in chars
                                for x in _casefix._EXTRA_CASES.get(ord(_fold(ch)), ()))
        self._safe: dict[str, bool] = {}
        self._known: frozenset[str] = frozenset()  # characters found safe
        self._unknown = _ANY_CHAR  # finds a character not in `_known`

    def _char_safe(self, ch: str) -> bool:
        ok = self._safe.get(ch)
        if ok is None:
            import _sre

            low = ch.lower()
            ok = (len(low) == 1 and low == _fold(ch) and low not in self._extra
                  and (low == ch or _sre.unicode_iscased(ord(low)))
                  and all(bool(p.match(ch)) == bool(p.match(low)) for p in self._CATEGORIES))
            self._safe[ch] = ok
        return ok

    def lower(self, text: str) -> str | None:
        """`text` lower-cased for the shortcuts, or None when they would not be exact."""
        # one regex scan settles the usual case, every character already found safe
        if not text.isascii() and self._unknown.search(text) is not None:
            chars = set(text)
            if not chars <= self._known:
                if not all(map(self._char_safe, chars)):
                    return None
                self._known |= chars
                self._unknown = re.compile(
                    "[^" + "".join(re.escape(ch) for ch in sorted(self._known)) + "]")
        return text.lower()


_ANY_CHAR = re.compile(r"[\s\S]")
_LITERAL = re._constants.LITERAL  # type: ignore[attr-defined]
_first = itemgetter(0)  # the literal's index in an Aho-Corasick match (index, start, end)


def _search(kw: _Keyword, text: str, low: str | None) -> bool:
    pat, fast, _weight, need = kw
    if low is None or fast is None:
        return pat.search(text) is not None
    if need and not any(x in low for x in need):
        return False
    return fast.search(low) is not None


def _count(kw: _Keyword, text: str, low: str | None, cap: int = 0) -> int:
    """Number of (non-overlapping) matches, up to `cap` if given."""
    pat, fast, _weight, need = kw
    if low is not None and fast is not None and need and not any(x in low for x in need):
        return 0
    return _matches(pat, fast, text, low, cap)


def _matches(pat: _Lazy, fast: _Lazy | None, text: str, low: str | None, cap: int) -> int:
    """`_count` of a keyword without its literal check (its literals known present): one
    `findall` (the non-overlapping matches `finditer` gives), capped at `cap` if given."""
    hits = len(fast.findall(low) if low is not None and fast is not None else pat.findall(text))
    return min(hits, cap) if cap else hits


def _hits(kw: _Keyword, starts: _Literals, text: str, low: str | None) -> int:
    """`_matches` of keyword `kw` capped at `_MAX_HITS`; `starts`: `_Table.starts` of it."""
    if starts and low is not None:
        return _matches_from(kw[1].match, low, starts, _MAX_HITS)  # type: ignore[union-attr]
    return _matches(kw[0], kw[1], text, low, _MAX_HITS)


def _matches_from(match: Any, low: str, starts: _Literals, cap: int) -> int:
    """`len(findall(low))` of a pattern (`match` its `match`), up to `cap`, when each of its
    matches begins with one of the literals `starts`: `findall` tries each position in
    turn and takes the match found there, going on after its end; no position where no
    literal of `starts` begins can hold one, so only those are tried (with `match` at that
    position, which reads the text before it as the search does, e.g. for ``\b``)."""
    find = low.find
    hits = pos = 0
    while True:
        at = -1
        for x in starts:  # the first position at or after `pos` where one begins
            k = find(x, pos)
            if k >= 0 and (at < 0 or k < at):
                at = k
        if at < 0:
            return hits
        m = match(low, at)
        if m is None:
            pos = at + 1
        else:
            hits += 1
            if hits == cap:
                return hits
            pos = m.end()  # > at: a literal of `starts` is not empty


class _Lazy:
    """A regex compiled on first use, with the compiled pattern's `search`, `findall` and
    `match` (bound in its place by the first call, so later calls go straight to them). Most keywords
    never run on a given text (the literal prefilter rules them out), so compiling them all
    up front would cost every process most of a second for nothing."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def _compile(self) -> re.Pattern[str]:
        compiled = re.compile(self.pattern, self.flags)
        self.search = compiled.search  # type: ignore[method-assign]
        self.findall = compiled.findall  # type: ignore[method-assign]
        self.match = compiled.match  # type: ignore[method-assign]
        return compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._compile().search(text)

    def findall(self, text: str) -> list[Any]:
        return self._compile().findall(text)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._compile().match(text, pos)


#: A keyword: (pattern, its lower-cased copy or None, weight, required literals); the
#: patterns are compiled on first use (`_Lazy`).
_Keyword = tuple[_Lazy, _Lazy | None, int, _Literals]


def _keyword(pattern: str, weight: int, chars: set[str]) -> _Keyword:
    return _analysed(pattern, weight, chars)[0]


def _analysed(pattern: str, weight: int, chars: set[str]) -> tuple[_Keyword, list[Any]]:
    """The keyword of `pattern` and the parse trees of its patterns (the original's first),
    each pattern parsed once."""
    from re import _parser

    tree = _parser.parse(pattern, re.IGNORECASE)
    lowered = _lower_source(pattern)
    lowered_tree = _parser.parse(lowered)
    trees = [tree]
    fast = None
    if _same_folded(tree, lowered_tree, chars):
        fast = _Lazy(lowered)
        trees.append(lowered_tree)
    best = _best(_required(tree)) or ()
    literals = tuple(x.lower() for x in best)
    if fast is None or any(_fold(ch) != low for x, y in zip(best, literals)
                           for ch, low in zip(x, y)):
        literals = ()
    return (_Lazy(pattern, re.IGNORECASE), fast, weight, literals), trees


def _line_local(trees: Sequence[Any]) -> bool:
    """Does a keyword (the parse `trees` of its pattern and of its lower-cased copy, if
    any) only ever match inside one line? Then its matches in lines joined by "\n" are those
    of each line on its own, in order, and counts over a span of lines are sums of line
    counts. True when neither the pattern nor its lower-cased copy can match an empty string
    or a line break, and the only assertion is ``\b`` (which reads a line break like the
    start or end of a text)."""
    return all(not tree.state.flags & re.DOTALL and tree.getwidth()[0] > 0 and _no_newline(tree)
               for tree in trees)


def _no_newline(seq: Any) -> bool:
    """Can no match of parsed sequence `seq` hold "\n" or look past the end of its line?"""
    from re import _constants as c

    for op, av in seq:
        if op is c.LITERAL:
            ok = av != 10
        elif op is c.NOT_LITERAL:
            ok = av == 10
        elif op is c.ANY:
            ok = True  # `.` without DOTALL
        elif op is c.IN:
            ok = not _class_has_newline(av)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            ok = _no_newline(av[2])
        elif op is c.SUBPATTERN:
            ok = not av[1] & re.DOTALL and _no_newline(av[3])
        elif op is c.BRANCH:
            ok = all(_no_newline(branch) for branch in av[1])
        elif op is c.AT:
            ok = av is c.AT_BOUNDARY
        else:
            ok = False  # lookarounds, back-references, anchors: not known to be line-local
        if not ok:
            return False
    return True


def _class_has_newline(items: Any) -> bool:
    """Does the parsed character class `items` match "\n"? (True when unsure.)"""
    from re import _constants as c

    negate = bool(items) and items[0][0] is c.NEGATE
    hit = False
    for op, av in items[1:] if negate else items:
        if op is c.LITERAL:
            hit = hit or av == 10
        elif op is c.RANGE:
            hit = hit or av[0] <= 10 <= av[1]
        elif op is c.CATEGORY and av in (c.CATEGORY_DIGIT, c.CATEGORY_WORD, c.CATEGORY_NOT_SPACE):
            pass
        elif op is c.CATEGORY and av in (c.CATEGORY_SPACE, c.CATEGORY_NOT_DIGIT, c.CATEGORY_NOT_WORD):
            hit = True
        else:
            return True
    return hit != negate


@dataclass(frozen=True)
class _Table:
    """The keywords of one language, flat: pattern i belongs to topic `keys[i]`; `users[j]`
    are the patterns that need literal `literals[j]`; `always` those that need none.
    `by_line`: no literal holds a newline, so the literals of a text are those of its lines.
    `local[i]`: pattern i is `_line_local`. `more[i]`: further clauses of literals every
    match of pattern i holds (one literal of each), checked by `matchable`. `starts[i]`:
    `_start_literals` of pattern i, for `_hits`. `finder`: an
    Aho-Corasick automaton of the literals (`ahocorasick_rs`, a DFA; a match gives the
    literal's index), so one pass over a text finds all it holds."""

    folder: _Folder
    keys: tuple[str, ...]
    keywords: tuple[_Keyword, ...]
    literals: tuple[str, ...]
    users: tuple[tuple[int, ...], ...]
    always: tuple[int, ...]
    by_line: bool
    local: tuple[bool, ...]
    more: tuple[tuple[_Literals, ...], ...]
    starts: tuple[_Literals, ...]
    finder: Any = field(compare=False, repr=False)

    def present(self, low: str) -> frozenset[int]:
        """Patterns whose literals the lower-cased text `low` holds (and those without)."""
        found = set(self.always)
        users = self.users
        if self.literals:
            # the literals found (each once: a common one occurs many times), collected in C
            try:
                seen = set(map(_first, self.finder.find_matches_as_indexes(low, overlapping=True)))
            except UnicodeEncodeError:  # a lone surrogate: the automaton takes UTF-8 only
                seen = {j for j, lit in enumerate(self.literals) if lit in low}
            for j in seen:
                found.update(users[j])
        return frozenset(found)

    def matchable(self, found: frozenset[int], low: str) -> frozenset[int]:
        """The patterns of `found` (`present(low)`) whose further literal clauses (`more`)
        the lower-cased text `low` holds too: the others cannot match `low` itself (but
        may still match a longer text that `low` is one line of). Worth it on long texts,
        where a `findall` costs far more than these substring checks."""
        more = self.more
        drop = []
        for i in found:
            for clause in more[i]:
                for x in clause:
                    if x in low:
                        break
                else:  # no literal of this clause
                    drop.append(i)
                    break
        return found.difference(drop) if drop else found


@cache
def _compiled(lang: str) -> _Table:
    entries = [(key, p, w) for key, per_lang in KEYWORDS.items()
               for p, w in per_lang.get(lang) or per_lang[_LANG_FALLBACK]]
    return _table(entries)


def _table(entries: Sequence[tuple[str, str, int]]) -> _Table:
    """The `_Table` of (topic, pattern, weight) entries, numbered in the order given."""
    chars: set[str] = set()
    keys = [key for key, _p, _w in entries]
    analysed = [_analysed(p, w, chars) for _key, p, w in entries]
    keywords = [kw for kw, _trees in analysed]
    users: dict[str, list[int]] = {}
    for i, kw in enumerate(keywords):
        for lit in kw[3]:
            users.setdefault(lit, []).append(i)
    always = tuple(i for i, kw in enumerate(keywords) if not kw[3])
    # (only searched when there are literals); all matches, overlapping ones too
    finder = ahocorasick_rs.AhoCorasick(list(users), matchkind=ahocorasick_rs.MatchKind.Standard,
                                        implementation=ahocorasick_rs.Implementation.DFA) if users else None
    return _Table(_Folder(chars), tuple(keys), tuple(keywords), tuple(users),
                  tuple(tuple(v) for v in users.values()), always,
                  not any("\n" in lit for lit in users),
                  tuple(_line_local(trees) for _kw, trees in analysed),
                  tuple(_more_literals(kw, trees[0]) for kw, trees in analysed),
                  tuple(_start_literals(kw, trees) for kw, trees in analysed), finder)


#: Shortest literal `_start_literals` takes: the text's shorter words come too often.
_START_MIN = 3


def _start_literals(kw: _Keyword, trees: Sequence[Any]) -> _Literals:
    """Literals one of which every match of the lower-cased copy of `kw` begins with, when
    that copy does not begin with a literal (which the regex engine would look for itself,
    where for an assertion, alternatives or a group it tries every position) and each has
    at least `_START_MIN` characters; else ()."""
    if kw[1] is None:
        return ()
    tree = trees[1]  # the lower-cased copy's (`_analysed`)
    if tree.state.flags & (re.IGNORECASE | re.LOCALE) or not len(tree) or tree[0][0] is _LITERAL:
        return ()
    begins = _starts(tree)
    if not begins or min(len(x) for x in begins) < _START_MIN:
        return ()
    return begins


#: Shortest literal `_more_literals` keeps: shorter ones ("of", "the") are in nearly every
#: text, so checking them would cost more than it saves.
_MORE_MIN = 4


def _more_literals(kw: _Keyword, tree: Any) -> tuple[_Literals, ...]:
    """Clauses of lower-cased literals every match of `kw` (parse tree `tree`) holds besides
    its required literals `kw[3]`, most selective first; only when `kw` runs on lower-cased
    text (the same conditions as for `kw[3]`) and each literal has at least `_MORE_MIN`
    characters."""
    if not kw[3]:
        return ()
    out = []
    for clause in _required(tree):
        low = tuple(x.lower() for x in clause)
        if low == kw[3] or min(len(x) for x in low) < _MORE_MIN:
            continue
        if any(_fold(ch) != c for x, y in zip(clause, low) for ch, c in zip(x, y)):
            continue
        if low not in out:
            out.append(low)
    return tuple(sorted(out, key=lambda cl: -min(len(x) for x in cl)))


@cache
def _title_compiled() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    return tuple(
        (key, tuple(re.compile(p, re.IGNORECASE) for p in pats))
        for key, pats in TITLE_PATTERNS.items()
    )


@cache
def _title_table() -> _Table:
    """`TITLE_PATTERNS` as a `_Table`: patterns numbered topic by topic, in table order."""
    return _table([(key, p, 0) for key, pats in TITLE_PATTERNS.items() for p in pats])


def raw_scores(text: str, lang: str) -> dict[str, float]:
    """Keyword evidence per topic: sum of weight x hits (hits capped per pattern). Additive
    over texts, so `segment` can sum line scores to score any span."""
    table = _compiled(lang)
    return _raw_scores(table, text, table.folder.lower(text))


def _raw_scores(table: _Table, text: str, low: str | None) -> dict[str, float]:
    """`raw_scores` of `text`, whose `_Folder.lower` is `low`."""
    found = None if low is None else table.matchable(table.present(low), low)
    run: Iterable[int] = range(len(table.keywords)) if found is None else sorted(found)
    totals: dict[str, float] = {}
    starts = table.starts
    for i in run:
        kw = table.keywords[i]
        hits = _hits(kw, starts[i], text, low)
        if hits:
            key = table.keys[i]
            totals[key] = totals.get(key, 0.0) + kw[2] * hits
    # patterns run in table order, topic by topic in `KEYWORDS` order (`_compiled`), so
    # `totals` already holds the topics in `KEYWORDS` order
    return {key: v for key, v in totals.items() if v}


def normalise(raw: dict[str, float]) -> dict[str, float]:
    """Raw evidence -> scores in 0..1: each topic's share of the evidence, damped when the
    evidence is thin (a text with one weak hit is not confidently about anything)."""
    total = sum(raw.values())
    if not total:
        return {}
    damp = total / (total + 3.0)
    return {key: value / total * damp for key, value in raw.items()}


def score_all(text: str, lang: str) -> dict[str, float]:
    """Score in 0..1 for every topic with any evidence in `text` (missing keys score 0)."""
    return normalise(raw_scores(text, lang))


def classify_title(title: str | None) -> str | None:
    """Topic of a printed article title, or None when the title names none."""
    if not title or not title.strip():
        return None
    table = _title_table()
    low = table.folder.lower(title)
    if low is not None:
        # only patterns whose literals the title holds can match; the first of them (in
        # table order) that does names the first topic whose patterns match
        keywords = table.keywords
        for i in sorted(table.present(low)):
            if _search(keywords[i], title, low):
                return table.keys[i]
        return None
    for key, pats in _title_compiled():
        if any(p.search(title) for p in pats):
            return key
    return None


def classify(title: str | None, text: str, lang: str) -> tuple[str | None, float]:
    """(topic key, confidence 0..1) of one article: from its printed title when the title
    names a topic (confidence 0.95), else from its text; (None, 0.0) without evidence."""
    key = classify_title(title)
    if key is not None:
        return key, 0.95
    return _top_topic(content_scores(text, lang))


def _top_topic(scores: dict[str, float]) -> tuple[str | None, float]:
    """(best topic, its score rounded) of `content_scores`; (None, 0.0) when empty."""
    if not scores:
        return None, 0.0
    best = max(scores, key=lambda k: scores[k])
    return best, round(min(scores[best], 1.0), 3)


#: How much of an article's start counts again: its opening sentence names its subject
#: ("Dividends paid by…", "Income … derived from real property…"), later paragraphs often
#: mention other topics in passing (royalties from mines in the immovable-property article).
OPENING_CHARS = 300
OPENING_WEIGHT = 3.0


def content_scores(text: str, lang: str) -> dict[str, float]:
    """Topic scores of an article's text with its opening counted again (0..1 each)."""
    table = _compiled(lang)
    low = table.folder.lower(text)
    opening, start = _opening_at(text)
    if low is not None and start is not None and "\u03a3" not in opening:
        # the opening is text[start:start + len(opening)], and `low` lower-cases the text
        # character by character (`_Folder.lower` passed every character: each lower-cases
        # to one; only "Σ" lower-cases by its neighbours), so its lower-cased form is there
        opening_low: str | None = low[start : start + len(opening)]
    else:
        opening_low = table.folder.lower(opening)
    return _with_opening(_raw_scores(table, text, low), _raw_scores(table, opening, opening_low))


def _with_opening(whole: dict[str, float], opening: dict[str, float]) -> dict[str, float]:
    # in model order, never set order: ties must break the same way in every process
    merged = {k: whole.get(k, 0.0) + OPENING_WEIGHT * opening.get(k, 0.0)
              for k in TOPICS if k in whole or k in opening}
    return normalise(merged)


def _opening(text: str) -> str:
    """The start of the body: skip a short heading line ("Article V", "ARTIGO 5")."""
    return _opening_at(text)[0]


def _opening_at(text: str) -> tuple[str, int | None]:
    """`_opening` of `text`, and where in `text` it stands (None when it is not a slice of
    `text`, as when line breaks other than "\n" were joined by "\n")."""
    # Only the text's start can matter: a first line shorter than 40 characters lies in
    # it (a longer one is long there too), and `OPENING_CHARS` characters of the joined
    # rest come from at most twice as many (a "\r\n" break becomes one "\n"), plus a
    # break that may be cut in two at the end.
    lines = text[: 40 + 2 + 2 * OPENING_CHARS + 2].splitlines()
    if len(lines) > 1 and len(lines[0]) < 40:
        opening, start = "\n".join(lines[1:])[:OPENING_CHARS], len(lines[0]) + 1
    else:
        opening, start = text[:OPENING_CHARS], 0
    return opening, start if text.startswith(opening, start) else None


# ---------------------------------------------------------------------------------------------
# Treaty register: is a line treaty text at all?
# ---------------------------------------------------------------------------------------------

# Words of the treaty register (operative language) and of other registers (first person,
# editorial and commercial notes). Used by `segment` to tell an editor's note or an
# advertisement after an excerpt from the treaty's own unnumbered sentences.
REGISTER: dict[str, dict[str, tuple[str, ...]]] = {
    "treaty": {
        "en": (r"contracting\s+states?", r"\bshall\b", r"\bthis\s+(convention|agreement|article|paragraph)", r"\bparagraphs?\s+\d", r"\bcompetent\s+authorit", r"\bresident\s+of"),
        "pt": (r"estados?\s+contratantes?", r"\b(será|serão|poderá|poderão|aplicar-se-á)\b", r"\best[ae]\s+(convenção|acordo|artigo|parágrafo|número)", r"\bparágrafos?\s+\d|\bn\.[oº]s?\s+\d", r"autoridades?\s+competentes?", r"\bresidente\s+d"),
        "sv": (r"avtalsslutande\s+stat", r"\bskall\b|\bska\b|\bskola\b", r"\bdetta\s+(avtal|artikel)", r"§\s*\d", r"behörig\w*\s+myndighet", r"\bhemvist\b"),
        "zh": (r"缔约国", r"本协定|本条|本款", r"应当?", r"主管当局", r"居民"),
    },
    "other": {
        "en": (r"\b(we|our|ours|us)\b", r"\b(unofficial|translation|translated|editorial|editor|note[sd]?|verified|reproduced)\b", r"\b(quote|contact|call\s+us|e-?mail|www\.|https?:)", r"\bworking\s+days?\b"),
        "pt": (r"\b(nós|nosso|nossa|nossos|nossas)\b", r"\b(tradução|traduzido|nota\s+do\s+editor|editorial)\b", r"\b(orçamento|contacte|www\.|https?:)"),
        "sv": (r"\b(vi|vår|våra|oss)\b", r"\b(översättning|redaktionell|anmärkning)\b", r"\b(offert|kontakta|www\.|https?:)"),
        "zh": (r"我们|我司|本公司|本网", r"译文|编者|注：|注:", r"联系|咨询热线|网址"),
    },
}  # fmt: skip


@cache
def _register_compiled(lang: str) -> tuple[_Folder, tuple[_Keyword, ...], tuple[_Keyword, ...]]:
    chars: set[str] = set()
    kinds = tuple(
        tuple(_keyword(p, 0, chars) for p in REGISTER[kind].get(lang) or REGISTER[kind][_LANG_FALLBACK])
        for kind in ("treaty", "other")
    )
    return _Folder(chars), kinds[0], kinds[1]


def treaty_register(text: str, lang: str) -> float:
    """Evidence that `text` is operative treaty language: hits of treaty-register patterns
    minus twice the hits of first-person/editorial/commercial patterns."""
    folder, treaty, other = _register_compiled(lang)
    low = folder.lower(text)
    pos = sum(1 for kw in treaty if _search(kw, text, low))
    neg = sum(_count(kw, text, low) for kw in other)
    return pos - 2.0 * neg


class LineScores:
    """Keyword evidence of spans of one document's lines, each line scanned once.

    For lines[a:b] joined by "\n": `raw(a, b)` is `raw_scores` and `classify(title, a, b)`
    `classify` of that text (same values). The literal scan of `raw_scores` (`_Table.present`)
    runs once per line; a pattern that matches only inside lines (`_line_local`) is counted
    once per line and summed over a span; the others run on the span's text as `raw_scores`
    runs them. Spans with a line whose characters the lower-cased shortcuts cannot take
    (`_Folder.lower`) go to `raw_scores` itself. One document's: never kept across
    documents.
    """

    def __init__(self, lines: Sequence[str], lang: str, *, keep_line_hits: bool = True) -> None:
        """`keep_line_hits=False`: `line_raws` does not keep the line hits it counts for
        `raw` and `classify` (they count them again if called after it): for a caller
        that calls neither after `line_raws`."""
        self.lines = list(lines)
        self.lang = lang
        self._keep = keep_line_hits
        table = self._table = _compiled(lang)
        # one check of the whole document when it passes (a text's characters are safe
        # exactly when every line's are); line by line only when some line does not
        whole = table.folder.lower("\n".join(self.lines))
        lows: list[str | None] = [] if whole is None else whole.split("\n")
        if len(lows) != len(self.lines):
            lows = [table.folder.lower(t) for t in self.lines]
        self._lows = lows
        self._found = [None if low is None else table.present(low) for low in lows]
        self._hits: dict[tuple[int, int], int] = {}  # (pattern, line) -> capped count

    def _line_hits(self, i: int, j: int) -> int:
        """Capped hits of pattern i in line j."""
        key = (i, j)
        hits = self._hits.get(key)
        if hits is None:
            table = self._table
            hits = self._hits[key] = _hits(table.keywords[i], table.starts[i], self.lines[j],
                                           self._lows[j])
        return hits

    def raw(self, a: int, b: int) -> dict[str, float]:
        """`raw_scores` of lines[a:b] joined by "\n"."""
        found_of = self._found[a:b]
        table = self._table
        if None in found_of or not table.by_line:
            return raw_scores("\n".join(self.lines[a:b]), self.lang)
        line_hits = self._line_hits
        if b - a == 1:  # one line: every pattern's hits are its line hits
            counted = {i: line_hits(i, a) for i in found_of[0]}
        else:
            counted = {}  # line-local pattern -> hits summed over the lines
            found: set[int] = set()
            local = table.local
            for j, f in enumerate(found_of, a):
                found |= f  # type: ignore[arg-type]
                for i in f:  # type: ignore[union-attr]
                    if local[i]:
                        counted[i] = counted.get(i, 0) + line_hits(i, j)
            if len(counted) < len(found):
                text = "\n".join(self.lines[a:b])
                low = text.lower()
                for i in found.difference(counted):
                    counted[i] = _hits(table.keywords[i], table.starts[i], text, low)
        totals: dict[str, float] = {}
        for i in sorted(counted):
            hits = min(counted[i], _MAX_HITS)
            if hits:
                key = table.keys[i]
                totals[key] = totals.get(key, 0.0) + table.keywords[i][2] * hits
        # in `KEYWORDS` order, as `raw_scores` gives them: patterns are summed in table order
        return {key: v for key, v in totals.items() if v}

    def line_raws(self, a: int, b: int) -> list[dict[str, float]]:
        """`raw(j, j + 1)` of every line j in [a, b) (the same values, summed in the same
        order), in one pass: a line's scores are its patterns' line hits, and its patterns
        are in `KEYWORDS` order (`_compiled` numbers them topic by topic). Only the patterns
        `_Table.matchable` leaves can have line hits; the others' are 0."""
        table = self._table
        if not table.by_line:
            return [raw_scores(t, self.lang) for t in self.lines[a:b]]
        keys, keywords, starts, matchable = table.keys, table.keywords, table.starts, table.matchable
        # `_line_hits`, inline; without `keep_line_hits` only hits `raw` kept are read
        cache = self._hits
        keep = self._keep
        out: list[dict[str, float]] = []
        for j in range(a, b):
            found = self._found[j]
            if found is None:
                out.append(raw_scores(self.lines[j], self.lang))
                continue
            text, low = self.lines[j], self._lows[j]
            totals: dict[str, float] = {}
            for i in sorted(matchable(found, low)):  # type: ignore[arg-type]
                hits = cache.get((i, j)) if cache else None
                if hits is None:
                    hits = _hits(keywords[i], starts[i], text, low)
                    if keep:
                        cache[i, j] = hits
                if hits:
                    key = keys[i]
                    totals[key] = totals.get(key, 0.0) + keywords[i][2] * hits
            out.append({key: v for key, v in totals.items() if v})
        return out

    def classify(self, title: str | None, a: int, b: int) -> tuple[str | None, float]:
        """`classify` of lines[a:b] joined by "\n", with printed title `title`."""
        key = classify_title(title)
        if key is not None:
            return key, 0.95
        opening = raw_scores(_opening("\n".join(self.lines[a:b])), self.lang)
        return _top_topic(_with_opening(self.raw(a, b), opening))


def pooled_scores(articles: Sequence[tuple[str | None, str, str]]) -> dict[str, float]:
    """Topic evidence for the language versions of one article: (title, text, lang) each.

    The versions of an article are the same provision, so a printed title in any version
    decides (score 1.0 for its topic); otherwise the content scores of all versions are
    averaged (each normalised first, so a long version does not outvote the others).
    """
    for title, _text, _lang in articles:
        key = classify_title(title)
        if key is not None:
            return {key: 1.0}
    pooled: dict[str, float] = {}
    for _title, text, lang in articles:
        for key, value in content_scores(text, lang).items():
            pooled[key] = pooled.get(key, 0.0) + value / len(articles)
    return pooled


#: Below this share of an article's evidence a second-choice topic is not given.
MIN_SECOND_CHOICE = 0.1


def assign(articles: dict[int, dict[str, float]]) -> dict[int, str | None]:
    """One topic per article of a treaty, each model topic to at most one article.

    A model convention gives each topic one article, so when two articles of a treaty claim
    the same topic the better-supported one keeps it and the other takes its next best topic
    (if it has real evidence for one). Titled articles (score 1.0) always keep their topic.
    """
    claims = sorted(
        ((score, number, key) for number, scores in articles.items()
         for key, score in scores.items()),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    out: dict[int, str | None] = {n: None for n in articles}
    taken: set[str] = set()
    for score, number, key in claims:
        if out[number] is not None:
            continue
        best = max(articles[number].values())
        if score >= 1.0 or (key not in taken and (score == best or score >= MIN_SECOND_CHOICE)):
            out[number] = key
            taken.add(key)
    return out
