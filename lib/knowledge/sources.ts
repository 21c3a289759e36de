/** A publication or vendor report a benchmark figure comes from. */
export interface Source {
  publication: string;
  url?: string;
}

/**
 * The sources the knowledge packs cite (RESEARCH.md, "Small-business behaviour", plus the Mailchimp
 * industry tables). Figures measured elsewhere (Australia, New Zealand, worldwide) are used as the best
 * available reference for an Italian small business; each figure says which row or number it took.
 */
export const SOURCES = {
  dantas2018: {
    publication:
      'Dantas, Fleck, Cyrino Oliveira, Hamacher (2018), "No-shows in appointment scheduling – a systematic literature review", Health Policy 122(4):412–421',
    url: 'https://doi.org/10.1016/j.healthpol.2018.02.002',
  },
  kitombaRebooking2021: {
    publication: 'Kitomba, "Industry insights: Rebooking rates for the hair and beauty industry" (Kitomba Benchmark data, Jan 2021)',
    url: 'https://www.kitomba.com/blog/rebooking-rates-hair-and-beauty-industry/',
  },
  kitombaRevisit2023: {
    publication: 'Kitomba Benchmark, Q1 2023, reported by Professional Collective NZ ("New Zealanders are extending time between salon appointments")',
    url: 'https://procollective.co.nz/new-zealanders-are-extending-time-between-salon-appointments-new-data-reveals/',
  },
  moego: {
    publication: 'MoeGo (pet grooming software): default rebooking cadence of 4 weeks',
  },
  mailchimp2019: {
    publication: 'Mailchimp, "Email Marketing Benchmarks by Industry" (last updated October 2019; measured before Apple Mail Privacy Protection inflated opens)',
    url: 'https://mailchimp.com/resources/email-marketing-benchmarks/',
  },
  mailchimp2018: {
    publication: 'Mailchimp, "Average Email Campaign Stats of Mailchimp Customers by Industry" (March 2018 edition)',
    url: 'https://mailchimp.com/resources/email-marketing-benchmarks/',
  },
} as const satisfies Record<string, Source>;
