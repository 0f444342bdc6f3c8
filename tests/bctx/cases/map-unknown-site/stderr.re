^bctx: m\.csv:3: site_id 'S777' is not in the site list
