/** The web inspector: sign-in, then a view per URL (router.ts), each reading the public HTTP API only. */
import { render } from 'preact';
import { session } from './api';
import { href, onLink, parseRoute, tenantHref, useLocation } from './router';
import { AnswersPage } from './views/answers';
import { AuditPage, DiffPage } from './views/audit';
import { BatchPage } from './views/batch';
import { FactPage } from './views/fact';
import { Memories } from './views/memories';
import { MemoryPage } from './views/memory';
import { MessagePage } from './views/message';
import { RecallPage, TracePage } from './views/recall';
import { SignIn } from './views/sign-in';
import './style.css';

function App() {
  const { pathname, search } = useLocation();
  const route = parseRoute(pathname);
  const tenant = 'tenant' in route ? route.tenant : null;
  // A cold deep link asks for the key first, then opens the page it names.
  if (session.key() === null || route.view === 'home') {
    return <SignIn key={tenant ?? ''} tenant={tenant} then={route.view === 'home' ? null : pathname + (search.size ? `?${search}` : '')} />;
  }
  return (
    <div class="shell" onClick={(e) => onLink(e as unknown as MouseEvent)}>
      <header>
        <a class="brand" href={href('/')}>
          factledger
        </a>
        {tenant && (
          <nav aria-label="views">
            <span class="tenant">{tenant}</span>
            <a href={tenantHref(tenant, '/memories')} aria-current={route.view === 'memories' || route.view === 'memory' || route.view === 'fact' ? 'page' : undefined}>
              Memories
            </a>
            <a href={tenantHref(tenant, '/recall')} aria-current={route.view === 'recall' || route.view === 'trace' ? 'page' : undefined}>
              Recall
            </a>
            <a href={tenantHref(tenant, '/answers')} aria-current={route.view === 'answers' ? 'page' : undefined}>
              Answers
            </a>
            <a href={tenantHref(tenant, '/audit')} aria-current={route.view === 'audit' || route.view === 'diff' ? 'page' : undefined}>
              Audit
            </a>
          </nav>
        )}
        <button
          type="button"
          class="link"
          onClick={() => {
            session.signOut();
            location.assign(href('/'));
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {route.view === 'memories' && <Memories key={route.tenant} tenant={route.tenant} />}
        {route.view === 'memory' && <MemoryPage key={`${route.tenant}/${route.memoryId}`} tenant={route.tenant} memoryId={route.memoryId} />}
        {route.view === 'fact' && <FactPage key={route.tenant} tenant={route.tenant} />}
        {route.view === 'recall' && <RecallPage key={route.tenant} tenant={route.tenant} />}
        {route.view === 'trace' && <TracePage key={`${route.tenant}/${route.traceId}`} tenant={route.tenant} id={route.traceId} />}
        {route.view === 'batch' && <BatchPage key={`${route.tenant}/${route.batch}`} tenant={route.tenant} batch={route.batch} />}
        {route.view === 'message' && <MessagePage key={`${route.tenant}/${route.messageId}`} tenant={route.tenant} messageId={route.messageId} />}
        {route.view === 'answers' && <AnswersPage key={route.tenant} tenant={route.tenant} />}
        {route.view === 'audit' && <AuditPage key={route.tenant} tenant={route.tenant} />}
        {route.view === 'diff' && <DiffPage key={route.tenant} tenant={route.tenant} />}
        {route.view === 'unknown' && <p class="state error">No such page. Start from the memories of a tenant.</p>}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
