/** Why a job page link opens no page: the cases a person holding the link can tell apart and act on. */
export type Refusal = 'incomplete' | 'altered' | 'expired' | 'gone';

const WHAT_HAPPENED: Readonly<Record<Refusal, { readonly title: string; readonly text: string }>> = {
  incomplete: {
    title: 'This job page link is incomplete',
    text: 'The address has no signature: it was probably cut short when it was copied.',
  },
  altered: {
    title: 'This job page link is not valid',
    text: 'Its signature does not match the address: the link was changed or cut short, or the bot signs links with another secret since it was drawn.',
  },
  expired: {
    title: 'This job page link has expired',
    text: 'A link opens its job for a limited time after the bot drew it (JOB_PAGE_TTL).',
  },
  gone: {
    title: 'This job is no longer recorded',
    text: 'The bot keeps a finished job for a while (JOB_RETENTION), then retires it with its page, or its Redis was reset.',
  },
};

const NEW_LINK =
  "Type <code>/cluster jobs</code> in Slack: it lists the recent jobs, each with a fresh link to its page. Or open the job's thread in Slack: the board at its top carries one too, as does the App Home for the jobs it lists.";
// A new link would find nothing either: say where the record still is.
const NO_NEW_LINK =
  "No new link opens it again. Its thread in Slack keeps the board and the job's log file; <code>/cluster audit</code> lists who asked for and approved what.";

/**
 * The short page a refused link gets instead of the job's: fixed words only, nothing of the request
 * (not even the job id in the address), so a refusal tells nothing of any job.
 */
export function refusalPage(refusal: Refusal): string {
  const { title, text } = WHAT_HAPPENED[refusal];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="../assets/job-page.css">
</head>
<body>
<main class="refusal" data-refusal="${refusal}">
<h1>${title}</h1>
<p>${text}</p>
<h2>${refusal === 'gone' ? 'Where its record is now' : 'How to get a new link'}</h2>
<p>${refusal === 'gone' ? NO_NEW_LINK : NEW_LINK}</p>
</main>
</body>
</html>
`;
}
